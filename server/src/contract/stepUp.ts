/**
 * Step-up (docs/security.md#step-up): before changing how the account signs in, deleting it or
 * downloading its data, the member proves presence again on this session within the window.
 */

/** How a member may prove presence: the password (two-factor off), a two-factor or recovery code (on), a passkey. */
export type StepUpMethod = 'password' | 'code' | 'passkey';

/** POST /api/auth/step-up: exactly one proof. A passkey's `credential` answers POST /api/auth/passkey/options. */
export type StepUpPayload = { password: string } | { code: string } | { credential: unknown };

/** The answer of POST /api/auth/step-up: the proof holds on this session until `validUntil` (ISO 8601). */
export type StepUpResponse = { ok: true; validUntil: string };

/** `error.details` of a 403 from a guarded route without a recent proof on this session. */
export type StepUpRequired = { stepUp: true; methods: StepUpMethod[] };

export const isStepUpRequired = (details: unknown): details is StepUpRequired =>
  typeof details === 'object' && details !== null && (details as { stepUp?: unknown }).stepUp === true;

export const stepUpMessages = {
  required: "Please confirm it's you to continue.",
  wrongPassword: 'The password is not right.',
  passwordMissing: 'Enter your password.',
  /** With two-factor on, the password alone is not a proof: it is what a phished member gives away first. */
  codeNeeded: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  passkeyFailed: 'That passkey could not confirm it was you. Try again or use another way.',
  noSession: 'Your session has expired. Please log in again.',
  /** An account with no password, no two-factor and no passkey (a social sign-in) proves presence by logging in again. */
  logInAgain: 'Please log in again to continue.',
  /** The SPA's text when the step-up call fails without the server's own. */
  failed: 'Could not confirm it was you. Please try again.',
} as const;
