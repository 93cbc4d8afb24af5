import type { LoginPayload, RegisterPayload, RegisterResponse } from '../../server/src/contract/auth';
import type { LoginResponse, TwoFactorLoginPayload } from '../../server/src/contract/twoFactor';
import { LOGIN_FALLBACK, REGISTER_FALLBACK } from './authFallbacks';
import { apiRequest } from './client';

type CallOptions = { signal?: AbortSignal };

/** POST /api/auth/local/register */
export function register(payload: RegisterPayload, { signal }: CallOptions = {}): Promise<RegisterResponse> {
  return apiRequest<RegisterResponse>('/api/auth/local/register', { method: 'POST', body: payload, fallback: REGISTER_FALLBACK, signal });
}

/**
 * POST /api/auth/local: a session, or the second step for a member with two-factor on; then
 * POST /api/auth/two-factor with its ticket and a code, which answers the session.
 */
export function login(payload: LoginPayload | TwoFactorLoginPayload, { signal }: CallOptions = {}): Promise<LoginResponse> {
  const path = 'ticket' in payload ? '/api/auth/two-factor' : '/api/auth/local';
  return apiRequest<LoginResponse>(path, { method: 'POST', body: payload, fallback: LOGIN_FALLBACK, signal });
}
