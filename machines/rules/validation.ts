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

/** SPEC §9: a social account created under 60 seconds ago is new and goes to /bmi first. */
export const NEW_ACCOUNT_WINDOW_MS = 60_000;

export function isNewAccount(createdAt: string | undefined, now: number): boolean {
  if (!createdAt) return false;
  const created = Date.parse(createdAt);
  return Number.isFinite(created) && now - created < NEW_ACCOUNT_WINDOW_MS;
}
