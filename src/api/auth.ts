import { apiClient } from './client';
import { toApiError } from './errors';
import type { AuthResponse } from './types';

export type RegisterPayload = { username: string; email: string; password: string };
export type LoginPayload = { identifier: string; password: string };
type CallOptions = { signal?: AbortSignal };

export const REGISTER_FALLBACK = 'Registration failed';
export const LOGIN_FALLBACK = 'Login failed';

/** POST /api/auth/local/register */
export async function register(payload: RegisterPayload, { signal }: CallOptions = {}): Promise<AuthResponse> {
  try {
    return await apiClient<AuthResponse>('/api/auth/local/register', { method: 'POST', body: payload, signal });
  } catch (error) {
    throw toApiError(error, REGISTER_FALLBACK);
  }
}

/** POST /api/auth/local */
export async function login(payload: LoginPayload, { signal }: CallOptions = {}): Promise<AuthResponse> {
  try {
    return await apiClient<AuthResponse>('/api/auth/local', { method: 'POST', body: payload, signal });
  } catch (error) {
    throw toApiError(error, LOGIN_FALLBACK);
  }
}
