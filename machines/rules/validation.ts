import { emailMessages, isValidEmail, usernameError } from '../../server/src/contract/fieldRules';

export function isBlank(value: string): boolean {
  return value.trim().length === 0;
}

export type SignUpFields = { username: string; email: string; password: string };

export const signUpMessages = {
  missingFields: 'Please fill in all required fields.',
  invalidEmail: emailMessages.invalid,
} as const;

/** The SPEC §5 sign-up rules, then the server's username rules (on the trimmed name, as the server reads it), so the reason shows before a round trip. */
export function signUpError(fields: SignUpFields): string | null {
  if (isBlank(fields.username) || isBlank(fields.email) || isBlank(fields.password)) {
    return signUpMessages.missingFields;
  }
  if (!isValidEmail(fields.email)) return signUpMessages.invalidEmail;
  return usernameError(fields.username.trim());
}

export const resetMessages = {
  missingEmail: 'Please enter your email.',
  invalidEmail: emailMessages.invalid,
  missingCode: 'Please enter the reset code.',
  missingPasswords: 'Please fill in both password fields.',
  mismatch: 'Passwords do not match.',
  tooShort: 'Password should be at least 6 characters.',
} as const;

export const MIN_PASSWORD_LENGTH = 6;

/** SPEC §5 reset step 1. */
export function resetRequestError(email: string): string | null {
  if (isBlank(email)) return resetMessages.missingEmail;
  if (!isValidEmail(email)) return resetMessages.invalidEmail;
  return null;
}

/** SPEC §5 reset step 2, in the spec's order. */
export function resetCodeError(fields: { code: string; password: string; passwordConfirmation: string }): string | null {
  if (isBlank(fields.code)) return resetMessages.missingCode;
  if (!fields.password || !fields.passwordConfirmation) return resetMessages.missingPasswords;
  if (fields.password !== fields.passwordConfirmation) return resetMessages.mismatch;
  if (fields.password.length < MIN_PASSWORD_LENGTH) return resetMessages.tooShort;
  return null;
}

/** SPEC §9: a social account created under 60 seconds ago is new and goes to /bmi first. */
export const NEW_ACCOUNT_WINDOW_MS = 60_000;

export function isNewAccount(createdAt: string | undefined, now: number): boolean {
  if (!createdAt) return false;
  const created = Date.parse(createdAt);
  return Number.isFinite(created) && now - created < NEW_ACCOUNT_WINDOW_MS;
}
