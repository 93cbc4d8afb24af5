import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { passkeyMessages } from '../../server/src/contract/passkeys';

/**
 * The browser's side of a passkey ceremony (navigator.credentials through @simplewebauthn/browser).
 * The library is imported on first use, so it stays out of the entry bundle and the log-in page.
 */

/** The member closed the browser's passkey dialog, or it timed out: nothing is wrong, nothing was done. */
export class PasskeyCancelledError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PasskeyCancelledError';
  }
}

const webauthn = () => import('@simplewebauthn/browser');

/** NotAllowedError is what browsers report for a dismissed dialog or a timeout (by design they don't tell which). */
const wasCancelled = (error: unknown) => error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');

/** Ends the ceremony when the caller's signal aborts (the page or flow went away). */
function cancelOnAbort(signal: AbortSignal | undefined, cancel: () => void): () => void {
  signal?.addEventListener('abort', cancel, { once: true });
  return () => signal?.removeEventListener('abort', cancel);
}

/** Asks the authenticator for a new passkey. */
export async function createPasskeyCredential(
  optionsJSON: PublicKeyCredentialCreationOptionsJSON,
  { signal }: { signal?: AbortSignal } = {},
): Promise<RegistrationResponseJSON> {
  const { browserSupportsWebAuthn, startRegistration, WebAuthnAbortService } = await webauthn();
  if (!browserSupportsWebAuthn()) throw new Error(passkeyMessages.unsupported);
  const release = cancelOnAbort(signal, () => WebAuthnAbortService.cancelCeremony());
  try {
    return await startRegistration({ optionsJSON });
  } catch (error) {
    if (wasCancelled(error)) throw new PasskeyCancelledError(passkeyMessages.addCancelled);
    // InvalidStateError: this authenticator already holds one of the member's passkeys (excludeCredentials).
    if (error instanceof Error && error.name === 'InvalidStateError') throw new Error(passkeyMessages.alreadyRegistered);
    if (error instanceof Error && error.name === 'NotSupportedError') throw new Error(passkeyMessages.unsupported);
    throw new Error(passkeyMessages.addFailed);
  } finally {
    release();
  }
}

/** Asks for one of the site's passkeys: in the browser's dialog, or (autofill) in the identifier field's suggestions. */
export async function getPasskeyCredential(
  optionsJSON: PublicKeyCredentialRequestOptionsJSON,
  { signal, autofill = false }: { signal?: AbortSignal; autofill?: boolean } = {},
): Promise<AuthenticationResponseJSON> {
  const { browserSupportsWebAuthn, startAuthentication, WebAuthnAbortService } = await webauthn();
  if (!browserSupportsWebAuthn()) throw new Error(passkeyMessages.signInUnsupported);
  const release = cancelOnAbort(signal, () => WebAuthnAbortService.cancelCeremony());
  try {
    return await startAuthentication({ optionsJSON, useBrowserAutofill: autofill });
  } catch (error) {
    // The field's suggestions are offered in the background: whatever keeps the browser from offering them
    // (another request took over, an address that is no domain name) is nothing the member asked about.
    if (autofill || wasCancelled(error)) throw new PasskeyCancelledError(autofill ? '' : passkeyMessages.cancelled);
    throw new Error(passkeyMessages.signInFailed);
  } finally {
    release();
  }
}

/** Whether the browser can offer passkeys in a field's autofill (conditional mediation). */
export async function passkeyAutofillSupported(): Promise<boolean> {
  const { browserSupportsWebAuthnAutofill } = await webauthn();
  return browserSupportsWebAuthnAutofill();
}
