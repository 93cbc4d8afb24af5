import { beforeEach, describe, expect, it, vi } from 'vitest';
import { browserSupportsWebAuthn, startAuthentication, startRegistration, WebAuthnAbortService } from '@simplewebauthn/browser';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { PasskeyCancelledError, createPasskeyCredential, getPasskeyCredential } from '../../machines/services/webauthn';
import { passkeyMessages } from '../../server/src/contract/passkeys';

// The browser's WebAuthn, as @simplewebauthn/browser reports it.
vi.mock('@simplewebauthn/browser', () => ({
  browserSupportsWebAuthn: vi.fn(),
  browserSupportsWebAuthnAutofill: vi.fn(),
  startRegistration: vi.fn(),
  startAuthentication: vi.fn(),
  WebAuthnAbortService: { cancelCeremony: vi.fn() },
}));

const creation = { challenge: 'c' } as PublicKeyCredentialCreationOptionsJSON;
const request = { challenge: 'c' } as PublicKeyCredentialRequestOptionsJSON;
const named = (name: string) => Object.assign(new Error(name), { name });

beforeEach(() => {
  vi.mocked(browserSupportsWebAuthn).mockReset().mockReturnValue(true);
  vi.mocked(startRegistration).mockReset();
  vi.mocked(startAuthentication).mockReset();
  vi.mocked(WebAuthnAbortService.cancelCeremony).mockReset();
});

describe('passkey ceremonies in the browser (machines/services/webauthn.ts)', () => {
  it('a device without WebAuthn: "This device can\'t create a passkey."', async () => {
    vi.mocked(browserSupportsWebAuthn).mockReturnValue(false);
    await expect(createPasskeyCredential(creation)).rejects.toThrow(passkeyMessages.unsupported);
    await expect(getPasskeyCredential(request)).rejects.toThrow(passkeyMessages.signInUnsupported);
    expect(startRegistration).not.toHaveBeenCalled();
  });

  it.each([
    ['NotAllowedError', PasskeyCancelledError, passkeyMessages.addCancelled],
    ['AbortError', PasskeyCancelledError, passkeyMessages.addCancelled],
    ['InvalidStateError', Error, passkeyMessages.alreadyRegistered],
    ['NotSupportedError', Error, passkeyMessages.unsupported],
    ['SecurityError', Error, passkeyMessages.addFailed],
  ])('registration: %s reads as its message', async (name, kind, message) => {
    vi.mocked(startRegistration).mockRejectedValue(named(name));
    const error = await createPasskeyCredential(creation).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(kind);
    expect((error as Error).message).toBe(message);
    expect((error as Error).name === 'PasskeyCancelledError').toBe(kind === PasskeyCancelledError);
  });

  it('sign-in: a closed dialog is a cancellation; anything else a clear failure; autofill problems say nothing', async () => {
    vi.mocked(startAuthentication).mockRejectedValue(named('NotAllowedError'));
    await expect(getPasskeyCredential(request)).rejects.toEqual(new PasskeyCancelledError(passkeyMessages.cancelled));
    vi.mocked(startAuthentication).mockRejectedValue(named('SecurityError'));
    await expect(getPasskeyCredential(request)).rejects.toThrow(passkeyMessages.signInFailed);
    const silent = await getPasskeyCredential(request, { autofill: true }).catch((caught: unknown) => caught);
    expect(silent).toBeInstanceOf(PasskeyCancelledError);
    expect((silent as Error).message).toBe('');
    expect(startAuthentication).toHaveBeenLastCalledWith({ optionsJSON: request, useBrowserAutofill: true });
  });

  it("an aborted caller's signal ends the browser's ceremony", async () => {
    const controller = new AbortController();
    let finish: (value: never) => void = () => {};
    vi.mocked(startAuthentication).mockReturnValue(new Promise((resolve) => (finish = resolve)));
    const pending = getPasskeyCredential(request, { signal: controller.signal });
    await vi.waitFor(() => expect(startAuthentication).toHaveBeenCalled());
    controller.abort();
    expect(WebAuthnAbortService.cancelCeremony).toHaveBeenCalledTimes(1);
    finish({} as never);
    await pending;
    // After the ceremony, the signal no longer reaches it.
    expect(WebAuthnAbortService.cancelCeremony).toHaveBeenCalledTimes(1);
  });
});
