import { check, maxLength, minLength, object, pipe, type InferOutput } from 'valibot';
import { textField } from './schema';
import type { AuthResponse } from './auth';

/** Digits of an authenticator app's code (RFC 6238, 30-second steps, SHA-1: what every app shows). */
export const TOTP_DIGITS = 6;
/** Recovery codes handed out at enrolment and on each regeneration. */
export const RECOVERY_CODE_COUNT = 10;

/** A 6-digit code, spaces allowed ("123 456" as apps show it). */
export const TOTP_CODE_PATTERN = /^\d{3}\s?\d{3}$/;
/** A recovery code as handed out: ten letters or digits in two groups of five ("k7m2p-9xq4r"). */
export const RECOVERY_CODE_PATTERN = /^[a-z0-9]{5}-?[a-z0-9]{5}$/i;

/** What the member types: a code without its spaces, a recovery code lower-cased without its dash. */
export const normaliseCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

/** GET /api/two-factor */
export type TwoFactorStatus = { enabled: boolean; recoveryCodesLeft: number };

/** POST /api/two-factor/setup: a new secret, not in force until confirmed with a first code. */
export type TwoFactorSetupResponse = {
  /** The secret as text (base32), for apps without a camera. */
  secret: string;
  /** The otpauth:// URI the QR code holds. */
  uri: string;
  /** The QR code, rendered by the server (no third party sees the secret): an SVG data URL. */
  qrCode: string;
};

/** POST /api/two-factor/enable */
export type TwoFactorEnablePayload = InferOutput<typeof twoFactorEnableBody>;
/** POST /api/two-factor/recovery-codes */
export type TwoFactorRegeneratePayload = InferOutput<typeof twoFactorRegenerateBody>;
/** The answer of enable and recovery-codes: the codes, shown once (the server keeps only their hashes). */
export type RecoveryCodesResponse = { recoveryCodes: string[] };
/** POST /api/two-factor/disable */
export type TwoFactorDisablePayload = InferOutput<typeof twoFactorDisableBody>;

/** POST /api/auth/local for a member with two-factor: no session yet, a ticket for the second step. */
export type TwoFactorChallenge = { twoFactorRequired: true; ticket: string };
/** The answer of POST /api/auth/local: a session, or the second step. */
export type LoginResponse = AuthResponse | TwoFactorChallenge;
/** POST /api/auth/two-factor: the ticket and a code from the app, or a recovery code. Answered with AuthResponse. */
export type TwoFactorLoginPayload = InferOutput<typeof twoFactorLoginBody>;

/** Every message of two-factor, server and SPA alike (SPEC §8's voice). */
export const twoFactorMessages = {
  wrongCode: 'That code is not right. Try again.',
  codeMissing: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  noSetup: 'Start the set-up again: scan the new QR code, then enter its code.',
  alreadyEnabled: 'Two-factor authentication is already on.',
  notEnabled: 'Two-factor authentication is not on.',
  passwordNeeded: 'Two-factor authentication needs an account with a password.',
  wrongPassword: 'The password is not right.',
  ticketExpired: 'Your log-in has expired. Please log in again.',
  /** The ticket took TICKET_MAX_FAILURES wrong codes: the member starts the log-in again. */
  ticketBurnt: 'Too many wrong codes. Please log in again.',
  locked: (retryAfterSec: number) => {
    const minutes = Math.max(1, Math.ceil(retryAfterSec / 60));
    return `Too many wrong codes. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
  },
} as const;

// The bodies of the two-factor routes. A field left out reads as empty and one not text breaks its rule, in the
// rule's words; a body that is not an object is refused as its first field. Each route checks a field when its
// turn comes (services/two-factor.ts): some come after the member's state or the password.

/** An app code (enrolment confirms the new secret with one, never with a recovery code). */
const appCode = pipe(
  textField(twoFactorMessages.codeMissing),
  check((code) => TOTP_CODE_PATTERN.test(code.trim()), twoFactorMessages.codeMissing),
);
/** A code typed in: an app code or a recovery code (which one, and whether right, the server tells). */
export const givenCode = pipe(
  textField(twoFactorMessages.codeMissing),
  check((code) => code.trim() !== '', twoFactorMessages.codeMissing),
);

/** POST /api/two-factor/enable */
export const twoFactorEnableBody = object({ code: appCode }, twoFactorMessages.codeMissing);
/** POST /api/two-factor/recovery-codes */
export const twoFactorRegenerateBody = object({ code: givenCode }, twoFactorMessages.codeMissing);
/** POST /api/two-factor/disable: the password's rule first, then the code's. */
export const twoFactorDisableBody = object(
  {
    password: pipe(
      textField(twoFactorMessages.wrongPassword),
      check((password) => password !== '', twoFactorMessages.wrongPassword),
    ),
    code: givenCode,
  },
  twoFactorMessages.wrongPassword,
);
/** Tickets are issued far inside these lengths: anything else is void before it is looked up. */
const TICKET_LENGTH = { min: 20, max: 100 } as const;
/** POST /api/auth/two-factor: a ticket that cannot be one is void (401), then the code's rule. */
export const twoFactorLoginBody = object(
  {
    ticket: pipe(
      textField(twoFactorMessages.ticketExpired),
      minLength(TICKET_LENGTH.min, twoFactorMessages.ticketExpired),
      maxLength(TICKET_LENGTH.max, twoFactorMessages.ticketExpired),
    ),
    code: givenCode,
  },
  twoFactorMessages.ticketExpired,
);
