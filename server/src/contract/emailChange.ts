/** Verified e-mail change (issue 23 item 4): the links' requests and answers, shared by the SPA and the server. */

/** How long the confirmation link works. */
export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;

/** `<user id>.<43 base64url characters>`: the id finds the pending change, the rest is its secret. */
export const EMAIL_CHANGE_TOKEN_PATTERN = /^[1-9][0-9]{0,15}\.[A-Za-z0-9_-]{43}$/;

export const emailChangeMessages = {
  sent: (email: string) => `We sent a confirmation link to ${email}. Your email changes when you open it (within 24 hours).`,
  confirmed: (email: string) => `Your email address is now ${email}. Please log in with it.`,
  cancelled: 'The email change was cancelled. Your email address stays as it was.',
  invalidConfirmLink:
    'This confirmation link is invalid, was already used or has expired. Change your email again from your profile to get a new one.',
  invalidCancelLink: 'This link is no longer valid: the change was already confirmed, cancelled or replaced by a newer one.',
  taken: 'This email address is now used by another account, so your email was not changed.',
  missingToken: 'This link is incomplete. Please open the link from the email again.',
  /** 429: the member asked too often (EMAIL_CHANGE_LIMIT_PER_HOUR). */
  tooManyRequests: (retryAfterSec: number) =>
    `You asked to change your email too many times. Please try again in ${waitText(retryAfterSec)}.`,
  /** 429: the address got too many confirmation emails, whoever asked (EMAIL_CHANGE_LIMIT_PER_ADDRESS_PER_DAY). */
  tooManyToAddress: (retryAfterSec: number) =>
    `Too many confirmation emails were sent to this address. Please try again in ${waitText(retryAfterSec)}.`,
} as const;

/** "45 seconds", "1 minute", "12 minutes", "1 hour", "20 hours": rounded up. */
function waitText(seconds: number): string {
  const count = (amount: number, unit: string) => `${amount} ${unit}${amount === 1 ? '' : 's'}`;
  if (seconds < 60) return count(Math.max(1, Math.ceil(seconds)), 'second');
  if (seconds <= 90 * 60) return count(Math.ceil(seconds / 60), 'minute');
  return count(Math.ceil(seconds / 3600), 'hour');
}

/** The body of POST /api/auth/email-change/confirm and /cancel. */
export type EmailChangeTokenBody = { token: string };

/** The answer of POST /api/auth/email-change/confirm: the account's new address. */
export type EmailChangeConfirmed = { email: string };

/** The answer of POST /api/auth/email-change/cancel. */
export type EmailChangeCancelled = { ok: true };

/** Part of the answer of PUT /api/users/:id when it asked for a new address: the change waits for the link. */
export type PendingEmailChange = { pendingEmail: string; expiresAt: string };

/** The token of a link's query, or null when it cannot be one (the page then says so without asking the server). */
export function emailChangeToken(value: unknown): string | null {
  return typeof value === 'string' && EMAIL_CHANGE_TOKEN_PATTERN.test(value) ? value : null;
}
