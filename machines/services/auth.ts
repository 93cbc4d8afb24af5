import type { AuthResponse, LoginPayload, RegisterPayload, RegisterResponse } from '../../server/src/contract/auth';
import type { LoginResponse, TwoFactorLoginPayload } from '../../server/src/contract/twoFactor';
import { apiRequest } from './client';

/** SPEC §8 fallbacks of the auth calls. */
export const REGISTER_FALLBACK = 'Registration failed';
export const LOGIN_FALLBACK = 'Login failed';

type CallOptions = { signal?: AbortSignal };

/** POST /api/auth/local/register */
export function register(payload: RegisterPayload, { signal }: CallOptions = {}): Promise<RegisterResponse> {
  return apiRequest<RegisterResponse>('/api/auth/local/register', { method: 'POST', body: payload, fallback: REGISTER_FALLBACK, signal });
}

/** POST /api/auth/local: a session, or the second step for a member with two-factor on. */
export function login(payload: LoginPayload, { signal }: CallOptions = {}): Promise<LoginResponse> {
  return apiRequest<LoginResponse>('/api/auth/local', { method: 'POST', body: payload, fallback: LOGIN_FALLBACK, signal });
}

/** POST /api/auth/two-factor: the second step's ticket and a code, answered with the session. */
export function loginWithCode(payload: TwoFactorLoginPayload, { signal }: CallOptions = {}): Promise<AuthResponse> {
  return apiRequest<AuthResponse>('/api/auth/two-factor', { method: 'POST', body: payload, fallback: LOGIN_FALLBACK, signal });
}
