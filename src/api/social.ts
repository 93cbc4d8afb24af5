import { apiClient } from './client';
import { ApiError, toApiError } from './errors';
import type { AuthResponse } from './types';

export type SocialProvider = 'google' | 'apple' | 'facebook';

/** Which providers the server has set up, and the public ids the browser needs. */
export type SocialConfig = {
  google: { enabled: boolean; clientId: string | null };
  apple: { enabled: boolean; clientId: string | null; redirectURI: string | null };
  facebook: { enabled: boolean };
};

/** SPEC §9: Google, Apple and social callback calls time out after 15000 ms. */
export const SOCIAL_CALL_TIMEOUT_MS = 15_000;

export const SOCIAL_FALLBACKS = {
  google: 'Google Sign-In failed',
  apple: 'Apple Sign-In failed',
  callback: 'Social login failed',
} as const;

type CallOptions = { signal?: AbortSignal };

/** GET /api/social/config */
export async function getSocialConfig({ signal }: CallOptions = {}): Promise<SocialConfig> {
  try {
    return await apiClient<SocialConfig>('/api/social/config', { signal, timeout: SOCIAL_CALL_TIMEOUT_MS });
  } catch (error) {
    throw toApiError(error, 'Social sign-in is unavailable right now.');
  }
}

/** GET /api/auth/{google|apple}/callback?access_token=… with the provider's ID token. */
export async function exchangeIdToken(
  provider: 'google' | 'apple',
  idToken: string,
  { signal }: CallOptions = {},
): Promise<AuthResponse> {
  try {
    return await apiClient<AuthResponse>(`/api/auth/${provider}/callback`, {
      query: { access_token: idToken },
      headers: { 'Content-Type': 'application/json' },
      timeout: SOCIAL_CALL_TIMEOUT_MS,
      signal,
    });
  } catch (error) {
    throw toApiError(error, SOCIAL_FALLBACKS[provider]);
  }
}

/** GET /api/connect/{provider}/callback?code=…: finishes a redirect sign-in (Facebook). */
export async function connectCallback(
  provider: string,
  code: string,
  state: string | undefined,
  { signal }: CallOptions = {},
): Promise<AuthResponse> {
  try {
    const response = await apiClient.raw<AuthResponse>(`/api/connect/${encodeURIComponent(provider)}/callback`, {
      // The provider's state goes back to the server, which checks it against the sign-in it started.
      query: state ? { code, state } : { code },
      headers: { 'Content-Type': 'application/json' },
      timeout: SOCIAL_CALL_TIMEOUT_MS,
      signal,
    });
    if (response.status !== 200 || !response._data?.jwt) throw new ApiError(SOCIAL_FALLBACKS.callback, response.status);
    return response._data;
  } catch (error) {
    throw toApiError(error, SOCIAL_FALLBACKS.callback);
  }
}
