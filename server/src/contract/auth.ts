import { check, object, pipe, transform } from 'valibot';
import { textField } from './schema';
import type { User } from './users';
import { emailMessages, isBlank, isValidEmail, usernameError } from './fieldRules';

/** POST /api/auth/local/register */
export type RegisterPayload = { username: string; email: string; password: string };

/** SPEC §5 sign-up messages (the username's own are fieldRules' usernameMessages). */
export const signUpMessages = {
  missingFields: 'Please fill in all required fields.',
  invalidEmail: emailMessages.invalid,
} as const;

// A field left out, or not text, reads as missing: its refusal is the spec's, not a type error's.
const field = textField(signUpMessages.missingFields);

/**
 * Sign-up as the form and POST /api/auth/local/register both check it: SPEC §5's rules in its order, then
 * the username's (on the trimmed name, as it is stored), so the form says why before a round trip and the
 * route refuses in the same words. The parsed value has the username and address trimmed.
 */
export const registerBody = pipe(
  object({ username: field, email: field, password: field }, signUpMessages.missingFields),
  check(({ username, email, password }) => !isBlank(username) && !isBlank(email) && !isBlank(password), signUpMessages.missingFields),
  check(({ email }) => isValidEmail(email), signUpMessages.invalidEmail),
  check(
    ({ username }) => usernameError(username.trim()) === null,
    (issue) => usernameError((issue.input as RegisterPayload).username.trim()) ?? signUpMessages.missingFields,
  ),
  transform(({ username, email, password }): RegisterPayload => ({ username: username.trim(), email: email.trim(), password })),
);
/** POST /api/auth/local */
export type LoginPayload = { identifier: string; password: string };
/** POST /api/auth/forgot-password */
export type ForgotPasswordPayload = { email: string };
/** POST /api/auth/reset-password */
export type ResetPasswordPayload = { code: string; password: string; passwordConfirmation: string };
/** POST /api/auth/change-password */
export type ChangePasswordPayload = { currentPassword: string; password: string; passwordConfirmation: string };

/** The answer of log-in, sign-up and the social callbacks: a session token and the member. */
export type AuthResponse = { jwt: string; user: Pick<User, 'id' | 'createdAt'> & Partial<User> };

/**
 * The answer of sign-up: a session, or only the user when the site asks new members to confirm
 * their e-mail address first (EMAIL_CONFIRMATION=true).
 */
export type RegisterResponse = AuthResponse | { jwt?: undefined; user: AuthResponse['user'] };

/** The answer of forgot-password, reset-password, delete-account and logout-all. */
export type OkResponse = { ok: true };
