import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { stepUpMessages, type StepUpMethod, type StepUpPayload, type StepUpResponse } from '../../server/src/contract/stepUp';
import { apiRequest } from './client';
import { getPasskeyCredential } from './webauthn';

type CallOptions = { signal?: AbortSignal };

/** What the member gave: the password or a code typed in the dialog, or a passkey. */
export type StepUpProof = { method: Exclude<StepUpMethod, 'passkey'>; secret: string } | { method: 'passkey' };

/** POST /api/auth/step-up: proves presence again on this session (docs/security.md#step-up). */
export async function confirmStepUp(proof: StepUpProof, { signal }: CallOptions = {}): Promise<void> {
  let body: StepUpPayload;
  if (proof.method === 'passkey') {
    // The same challenge as a passkey sign-in: the server checks that the passkey is this member's.
    const options = await apiRequest<PublicKeyCredentialRequestOptionsJSON>('/api/auth/passkey/options', {
      method: 'POST',
      fallback: stepUpMessages.passkeyFailed,
      signal,
    });
    body = { credential: await getPasskeyCredential(options, { signal }) };
  } else {
    body = proof.method === 'code' ? { code: proof.secret } : { password: proof.secret };
  }
  await apiRequest<StepUpResponse>('/api/auth/step-up', { method: 'POST', auth: true, body, fallback: stepUpMessages.failed, signal });
}
