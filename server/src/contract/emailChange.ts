/** Verified e-mail change (issue 23 item 4): the links' requests and answers, shared by the SPA and the server. */
import { object, pipe, regex, type InferOutput } from 'valibot';
import { textField } from './schema';

/** How long the confirmation link works. */
export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;

/** `<user id>.<43 base64url characters>`: the id finds the pending change, the rest is its secret. */
const EMAIL_CHANGE_TOKEN_PATTERN = /^[1-9][0-9]{0,15}\.[A-Za-z0-9_-]{43}$/;

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

/** A link's token, refused in `message` when left out or when it cannot be one (one rule; each reader words its refusal). */
/* @__NO_SIDE_EFFECTS__ */
function linkToken(message: string) {
  return pipe(textField(message), regex(EMAIL_CHANGE_TOKEN_PATTERN, message));
}

/** The link page's check before sending: a token cut short or edited is never sent, the page says why. */
export const emailChangeLinkToken = linkToken(emailChangeMessages.missingToken);

/**
 * The body of a link's route, refused in the link's words when its token cannot be one (like one that matches
 * nothing). Built by a call without property reads in its arguments, so a bundle that reads neither body drops them.
 */
/* @__NO_SIDE_EFFECTS__ */
function linkBody(link: 'confirm' | 'cancel') {
  const message = link === 'confirm' ? emailChangeMessages.invalidConfirmLink : emailChangeMessages.invalidCancelLink;
  return object({ token: linkToken(message) }, message);
}

/** POST /api/auth/email-change/confirm */
export const emailChangeConfirmBody = linkBody('confirm');
/** POST /api/auth/email-change/cancel */
export const emailChangeCancelBody = linkBody('cancel');

/** The body of POST /api/auth/email-change/confirm and /cancel. */
export type EmailChangeTokenBody = InferOutput<typeof emailChangeConfirmBody>;

/** The answer of POST /api/auth/email-change/confirm: the account's new address. */
export type EmailChangeConfirmed = { email: string };

/** The answer of POST /api/auth/email-change/cancel. */
export type EmailChangeCancelled = { ok: true };

/** Part of the answer of PUT /api/users/:id when it asked for a new address: the change waits for the link. */
export type PendingEmailChange = { pendingEmail: string; expiresAt: string };
