// @ts-nocheck
import type { User } from './users';

/** POST /api/auth/local/register */
export type RegisterPayload = { username: string; email: string; password: string };
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
