import type { ForgotPasswordPayload, OkResponse, ResetPasswordPayload } from '../../server/src/contract/auth';
import { apiRequest } from './client';

export const FORGOT_PASSWORD_FALLBACK = 'Failed to send reset code';
export const RESET_PASSWORD_FALLBACK = 'Password reset failed';

/** POST /api/auth/forgot-password */
export async function forgotPassword(payload: ForgotPasswordPayload, { signal }: { signal?: AbortSignal } = {}): Promise<void> {
  await apiRequest<OkResponse>('/api/auth/forgot-password', { method: 'POST', body: payload, fallback: FORGOT_PASSWORD_FALLBACK, signal });
}

/** POST /api/auth/reset-password */
export async function resetPassword(payload: ResetPasswordPayload, { signal }: { signal?: AbortSignal } = {}): Promise<void> {
  await apiRequest<OkResponse>('/api/auth/reset-password', { method: 'POST', body: payload, fallback: RESET_PASSWORD_FALLBACK, signal });
}
