import { apiClient } from './client';
import { toApiError } from './errors';

export type ResetPasswordPayload = { code: string; password: string; passwordConfirmation: string };

export const FORGOT_PASSWORD_FALLBACK = 'Failed to send reset code';
export const RESET_PASSWORD_FALLBACK = 'Password reset failed';

/** POST /api/auth/forgot-password */
export async function forgotPassword(payload: { email: string }, { signal }: { signal?: AbortSignal } = {}): Promise<void> {
  try {
    await apiClient('/api/auth/forgot-password', { method: 'POST', body: payload, signal });
  } catch (error) {
    throw toApiError(error, FORGOT_PASSWORD_FALLBACK);
  }
}

/** POST /api/auth/reset-password */
export async function resetPassword(payload: ResetPasswordPayload, { signal }: { signal?: AbortSignal } = {}): Promise<void> {
  try {
    await apiClient('/api/auth/reset-password', { method: 'POST', body: payload, signal });
  } catch (error) {
    throw toApiError(error, RESET_PASSWORD_FALLBACK);
  }
}
