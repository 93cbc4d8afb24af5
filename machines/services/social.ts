import type { AuthResponse } from '../../server/src/contract/auth';
import type { SocialConfig } from '../../server/src/contract/social';
import { apiRequest } from './client';

/** SPEC §9: Google, Apple and social callback calls time out after 15000 ms. */
export const SOCIAL_CALL_TIMEOUT_MS = 15_000;

export const SOCIAL_FALLBACKS = {
  google: 'Google Sign-In failed',
  apple: 'Apple Sign-In failed',
  callback: 'Social login failed',
} as const;

type CallOptions = { signal?: AbortSignal };

const JSON_CONTENT = { 'Content-Type': 'application/json' };

/** GET /api/social/config */
export function getSocialConfig({ signal }: CallOptions = {}): Promise<SocialConfig> {
  return apiRequest<SocialConfig>('/api/social/config', {
    fallback: 'Social sign-in is unavailable right now.',
    timeout: SOCIAL_CALL_TIMEOUT_MS,
    signal,
  });
}

/** GET /api/auth/{google|apple}/callback?access_token=… with the provider's ID token. */
export function exchangeIdToken(provider: 'google' | 'apple', idToken: string, { signal }: CallOptions = {}): Promise<AuthResponse> {
  return apiRequest<AuthResponse>(`/api/auth/${provider}/callback`, {
    query: { access_token: idToken },
    headers: JSON_CONTENT,
    timeout: SOCIAL_CALL_TIMEOUT_MS,
    fallback: SOCIAL_FALLBACKS[provider],
    signal,
  });
}

/** Where a Facebook sign-in leaves the site: the server starts it and sends the browser to Facebook. */
export const FACEBOOK_CONNECT_URL = '/api/connect/facebook';

/** GET /api/connect/{provider}/callback?code=…: finishes a redirect sign-in (Facebook). */
export function connectCallback(
  provider: string,
  code: string,
  state: string | undefined,
  { signal }: CallOptions = {},
): Promise<AuthResponse> {
  return apiRequest<AuthResponse, AuthResponse>(`/api/connect/${encodeURIComponent(provider)}/callback`, {
    // The provider's state goes back to the server, which checks it against the sign-in it started.
    query: state ? { code, state } : { code },
    headers: JSON_CONTENT,
    timeout: SOCIAL_CALL_TIMEOUT_MS,
    fallback: SOCIAL_FALLBACKS.callback,
    read: (answer, status) => (status === 200 && answer?.jwt ? answer : undefined),
    signal,
  });
}
