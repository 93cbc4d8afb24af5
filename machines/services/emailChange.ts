import type { EmailChangeCancelled, EmailChangeConfirmed, EmailChangeTokenBody } from '../../server/src/contract/emailChange';
import { apiRequest } from './client';

export const CONFIRM_EMAIL_CHANGE_FALLBACK = 'Failed to confirm your new email address';
export const CANCEL_EMAIL_CHANGE_FALLBACK = 'Failed to cancel the email change';

type CallOptions = { signal?: AbortSignal };

/** POST /api/auth/email-change/confirm: the link mailed to the new address; resolves to the account's new address. */
export async function confirmEmailChange(token: string, { signal }: CallOptions = {}): Promise<string> {
  const answer = await apiRequest<EmailChangeConfirmed>('/api/auth/email-change/confirm', {
    method: 'POST',
    body: { token } satisfies EmailChangeTokenBody,
    fallback: CONFIRM_EMAIL_CHANGE_FALLBACK,
    signal,
  });
  return answer.email;
}

/** POST /api/auth/email-change/cancel: the link mailed to the old address voids the pending change. */
export async function cancelEmailChange(token: string, { signal }: CallOptions = {}): Promise<void> {
  await apiRequest<EmailChangeCancelled>('/api/auth/email-change/cancel', {
    method: 'POST',
    body: { token } satisfies EmailChangeTokenBody,
    fallback: CANCEL_EMAIL_CHANGE_FALLBACK,
    signal,
  });
}
