import crypto from 'node:crypto';
import { errors } from '@strapi/utils';
import { ProviderUnavailableError } from './id-token';
import type { SocialSettings } from './settings';
import { emailMessages, isValidEmail } from '../../../contract/fieldRules';

/**
 * Facebook Login, server side (authorization-code flow):
 * - GET /api/connect/facebook (browser navigation) sends the browser to Facebook's dialog with our
 *   app id, the SPA's callback route as redirect_uri, scope "email" and a random state; the state
 *   also goes into a signed, HttpOnly cookie scoped to /api/connect/facebook (10 minutes).
 * - Facebook sends the browser to the SPA's /auth/facebook/callback?code=…&state=…; the SPA calls
 *   GET /api/connect/facebook/callback?code=… and we exchange the code at the Graph API
 *   (oauth/access_token, with the same redirect_uri), then read /me?fields=id,name,email.
 *
 * Login CSRF: the callback requires both the state cookie (proof that this browser started a
 * Facebook sign-in on this site in the last 10 minutes) and the ?state=… Facebook sent back, equal
 * to the cookie's. An attacker can plant neither, so a link carrying the attacker's own code does
 * not log a victim into the attacker's account.
 */

export const FACEBOOK_MESSAGES = {
  failed: (reason: string) => `Facebook sign-in failed: ${reason}`,
  noEmail: 'Your Facebook account has no e-mail address.',
  noCode: 'Facebook sign-in failed: no authorization code was received.',
  noState: 'Facebook sign-in failed: the sign-in state is missing. Please try again.',
  notStarted: 'Facebook sign-in failed: the sign-in was not started from this browser, or it took too long. Please try again.',
  stateMismatch: 'Facebook sign-in failed: the sign-in state does not match. Please try again.',
  unreachable: 'Facebook sign-in is unavailable right now: Facebook could not be reached.',
} as const;

export const STATE_COOKIE = 'carnivo_fb_state';
export const STATE_COOKIE_PATH = '/api/connect/facebook';
const STATE_MAX_AGE_MS = 10 * 60_000;
const GRAPH_TIMEOUT_MS = 10_000;

interface CookieJar {
  get(name: string, options?: { signed?: boolean }): string | undefined;
  set(name: string, value: string | null, options?: Record<string, unknown>): unknown;
}

interface ConnectContext {
  cookies: CookieJar;
  request: { secure: boolean };
}

const cookieOptions = (ctx: ConnectContext) => ({
  path: STATE_COOKIE_PATH,
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: ctx.request.secure,
  signed: true,
  overwrite: true,
});

/** The URL of Facebook's login dialog; remembers the state in the browser's cookie. */
export function startAuthorization(settings: SocialSettings['facebook'], ctx: ConnectContext): string {
  const state = crypto.randomBytes(24).toString('base64url');
  ctx.cookies.set(STATE_COOKIE, `${state}.${Date.now() + STATE_MAX_AGE_MS}`, {
    ...cookieOptions(ctx),
    maxAge: STATE_MAX_AGE_MS,
  });
  const url = new URL(settings.authorizeUrl);
  url.searchParams.set('client_id', settings.appId);
  url.searchParams.set('redirect_uri', settings.redirectUri);
  url.searchParams.set('state', state);
  url.searchParams.set('scope', 'email');
  url.searchParams.set('response_type', 'code');
  return url.toString();
}

/** Checks the state parameter against the state cookie; throws a clear 400 otherwise. */
export function checkState(ctx: ConnectContext, stateParam: unknown): void {
  if (typeof stateParam !== 'string' || stateParam === '') throw new errors.ValidationError(FACEBOOK_MESSAGES.noState);
  const stored = ctx.cookies.get(STATE_COOKIE, { signed: true });
  const [state, expires] = (stored ?? '').split('.');
  if (!state || !(Number(expires) > Date.now())) throw new errors.ValidationError(FACEBOOK_MESSAGES.notStarted);
  const a = Buffer.from(stateParam);
  const b = Buffer.from(state);
  if (a.length !== b.length || !crypto.timingSafeEqual(a, b)) throw new errors.ValidationError(FACEBOOK_MESSAGES.stateMismatch);
}

export function forgetState(ctx: ConnectContext): void {
  ctx.cookies.set(STATE_COOKIE, null, { ...cookieOptions(ctx), signed: true });
}

interface GraphError {
  error?: { message?: string; type?: string; code?: number };
}

async function graphGet<T>(url: URL): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(GRAPH_TIMEOUT_MS) });
  } catch {
    throw new ProviderUnavailableError(FACEBOOK_MESSAGES.unreachable);
  }
  let body: (T & GraphError) | undefined;
  try {
    body = (await response.json()) as T & GraphError;
  } catch {
    body = undefined;
  }
  if (!response.ok || !body || body.error) {
    if (!body && response.status >= 500) throw new ProviderUnavailableError(FACEBOOK_MESSAGES.unreachable);
    const reason = body?.error?.message || `Facebook answered HTTP ${response.status}.`;
    throw new errors.ValidationError(FACEBOOK_MESSAGES.failed(reason));
  }
  return body;
}

/** Exchanges the authorization code and reads the person's e-mail address. */
export async function facebookIdentity(
  settings: SocialSettings['facebook'],
  code: string,
): Promise<{ email: string; id: string; name: string }> {
  const tokenUrl = new URL(`${settings.graphUrl}/oauth/access_token`);
  tokenUrl.searchParams.set('client_id', settings.appId);
  tokenUrl.searchParams.set('client_secret', settings.appSecret);
  tokenUrl.searchParams.set('redirect_uri', settings.redirectUri);
  tokenUrl.searchParams.set('code', code);
  const token = await graphGet<{ access_token?: string }>(tokenUrl);
  if (typeof token.access_token !== 'string' || !token.access_token) {
    throw new errors.ValidationError(FACEBOOK_MESSAGES.failed('Facebook sent no access token.'));
  }

  const meUrl = new URL(`${settings.graphUrl}/me`);
  meUrl.searchParams.set('fields', 'id,name,email');
  meUrl.searchParams.set('access_token', token.access_token);
  // Graph API "appsecret_proof": proves the call comes from the app's server.
  meUrl.searchParams.set('appsecret_proof', crypto.createHmac('sha256', settings.appSecret).update(token.access_token).digest('hex'));
  const me = await graphGet<{ id?: string; name?: string; email?: string }>(meUrl);

  const email = typeof me.email === 'string' ? me.email.trim().toLowerCase() : '';
  if (!email) throw new errors.ValidationError(FACEBOOK_MESSAGES.noEmail);
  if (!isValidEmail(email)) throw new errors.ValidationError(emailMessages.invalidFormat);
  return { email, id: String(me.id ?? ''), name: String(me.name ?? '') };
}
