import type { OkResponse } from '../../server/src/contract/auth';
import type {
  RecoveryCodesResponse,
  TwoFactorDisablePayload,
  TwoFactorEnablePayload,
  TwoFactorRegeneratePayload,
  TwoFactorSetupResponse,
  TwoFactorStatus,
} from '../../server/src/contract/twoFactor';
import { apiRequest } from './client';

export const TWO_FACTOR_FALLBACK = 'Two-factor authentication could not be changed. Please try again.';
export const TWO_FACTOR_STATUS_FALLBACK = 'Failed to load two-factor authentication';

type CallOptions = { signal?: AbortSignal };

/** GET /api/two-factor */
export function getTwoFactorStatus({ signal }: CallOptions = {}): Promise<TwoFactorStatus> {
  return apiRequest<TwoFactorStatus>('/api/two-factor', { auth: true, fallback: TWO_FACTOR_STATUS_FALLBACK, signal });
}

/** POST /api/two-factor/setup: a new secret and its QR code, not in force until confirmed. */
export function startTwoFactorSetup({ signal }: CallOptions = {}): Promise<TwoFactorSetupResponse> {
  return apiRequest<TwoFactorSetupResponse>('/api/two-factor/setup', { method: 'POST', auth: true, fallback: TWO_FACTOR_FALLBACK, signal });
}

/** POST /api/two-factor/enable: on with the first code; the recovery codes, shown once. */
export function enableTwoFactor(code: string, options: CallOptions = {}): Promise<string[]> {
  return postCodeForRecoveryCodes('/api/two-factor/enable', { code } satisfies TwoFactorEnablePayload, options);
}

/** POST /api/two-factor/recovery-codes: new codes; the old ones stop working. */
export function regenerateRecoveryCodes(code: string, options: CallOptions = {}): Promise<string[]> {
  return postCodeForRecoveryCodes('/api/two-factor/recovery-codes', { code } satisfies TwoFactorRegeneratePayload, options);
}

/** The two calls that take a code and answer with the recovery codes. */
async function postCodeForRecoveryCodes(
  path: string,
  body: TwoFactorEnablePayload | TwoFactorRegeneratePayload,
  { signal }: CallOptions,
): Promise<string[]> {
  const { recoveryCodes } = await apiRequest<RecoveryCodesResponse>(path, {
    method: 'POST',
    auth: true,
    body,
    fallback: TWO_FACTOR_FALLBACK,
    signal,
  });
  return recoveryCodes;
}

/** POST /api/two-factor/disable */
export async function disableTwoFactor(payload: TwoFactorDisablePayload, { signal }: CallOptions = {}): Promise<void> {
  await apiRequest<OkResponse>('/api/two-factor/disable', {
    method: 'POST',
    auth: true,
    body: payload,
    fallback: TWO_FACTOR_FALLBACK,
    signal,
  });
}
