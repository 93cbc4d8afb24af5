import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { AuthResponse, OkResponse } from '../../server/src/contract/auth';
import {
  passkeyMessages,
  type AddPasskeyPayload,
  type AddPasskeyResponse,
  type PasskeySignInPayload,
  type PasskeySummary,
  type PasskeysResponse,
} from '../../server/src/contract/passkeys';
import { apiRequest } from './client';
import { PasskeyCancelledError, createPasskeyCredential, getPasskeyCredential, passkeyAutofillSupported } from './webauthn';

type CallOptions = { signal?: AbortSignal };

/** GET /api/passkeys: the member's passkeys. */
export function listPasskeys({ signal }: CallOptions = {}): Promise<PasskeySummary[]> {
  return apiRequest<PasskeysResponse, PasskeySummary[]>('/api/passkeys', {
    auth: true,
    fallback: passkeyMessages.loadFailed,
    signal,
    read: (answer) => (Array.isArray(answer?.data) ? answer.data : undefined),
  });
}

/**
 * Adds a passkey: the server's creation options (POST /api/passkeys/registration-options), the
 * authenticator's new credential, then the server's verification (POST /api/passkeys).
 */
export async function addPasskey(name: string, { signal }: CallOptions = {}): Promise<PasskeySummary> {
  const options = await apiRequest<PublicKeyCredentialCreationOptionsJSON>('/api/passkeys/registration-options', {
    method: 'POST',
    auth: true,
    fallback: passkeyMessages.addFailed,
    signal,
  });
  const credential = await createPasskeyCredential(options, { signal });
  const body: AddPasskeyPayload = { credential, name };
  return apiRequest<AddPasskeyResponse, PasskeySummary>('/api/passkeys', {
    method: 'POST',
    auth: true,
    body,
    fallback: passkeyMessages.addFailed,
    signal,
    read: (answer) => answer?.data,
  });
}

/** DELETE /api/passkeys/:id */
export async function removePasskey(id: number, { signal }: CallOptions = {}): Promise<void> {
  await apiRequest<OkResponse>(`/api/passkeys/${id}`, { method: 'DELETE', auth: true, fallback: passkeyMessages.removeFailed, signal });
}

/**
 * Signs in with a passkey: a challenge (POST /api/auth/passkey/options), the authenticator's answer,
 * then a session from POST /api/auth/passkey. With `autofill`, the browser waits for the member to
 * pick a passkey in the identifier field's suggestions; where this browser cannot offer them, it ends
 * as a cancellation (nothing to tell the member).
 */
export async function signInWithPasskey({ signal, autofill = false }: CallOptions & { autofill?: boolean } = {}): Promise<AuthResponse> {
  if (autofill && !(await passkeyAutofillSupported())) throw new PasskeyCancelledError('');
  const options = await apiRequest<PublicKeyCredentialRequestOptionsJSON>('/api/auth/passkey/options', {
    method: 'POST',
    fallback: passkeyMessages.signInFailed,
    signal,
  });
  const credential = await getPasskeyCredential(options, { signal, autofill });
  const body: PasskeySignInPayload = { credential };
  return apiRequest<AuthResponse>('/api/auth/passkey', { method: 'POST', body, fallback: passkeyMessages.signInFailed, signal });
}
