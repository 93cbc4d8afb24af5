import type { LoginPayload, RegisterPayload, RegisterResponse } from '../../server/src/contract/auth';
import type { LoginResponse } from '../../server/src/contract/twoFactor';
import { LOGIN_FALLBACK, REGISTER_FALLBACK } from './authFallbacks';
import { apiRequest } from './client';

type CallOptions = { signal?: AbortSignal };

/** POST /api/auth/local/register */
export function register(payload: RegisterPayload, { signal }: CallOptions = {}): Promise<RegisterResponse> {
  return apiRequest<RegisterResponse>('/api/auth/local/register', { method: 'POST', body: payload, fallback: REGISTER_FALLBACK, signal });
}

/** POST /api/auth/local: a session, or the second step for a member with two-factor on. */
export function login(payload: LoginPayload, { signal }: CallOptions = {}): Promise<LoginResponse> {
  return apiRequest<LoginResponse>('/api/auth/local', { method: 'POST', body: payload, fallback: LOGIN_FALLBACK, signal });
}
