import { bootStrapi, request, type BootOptions, type TestStrapi } from './strapi';
import { signUp, type Member } from './members';
import { createOutboxReader } from './outbox';
import type { ApiError, AuthResponse } from './types';

/**
 * The scaffold of a server test file: boot the app, sign members up, log them in, read who a token
 * is. A file starts with
 *
 *   let app: TestApp;
 *   beforeAll(async () => (app = await boot({ outbox: true, limits: 'raised' })));
 *   afterAll(() => app?.stop());
 *
 * and then `await app.register('alice')`, `app.login(alice.email, alice.password)`, `app.me(alice.jwt)`.
 */

/** The auth routes' limits (docs/security.md) raised out of the way of a file's many sign-ups from 127.0.0.1. */
export const RAISED_LIMITS = {
  AUTH_RATELIMIT_MAX: '1000000',
  AUTH_ADDRESS_LIMIT_PER_MINUTE: '1000000',
  AUTH_ADDRESS_LIMIT_PER_DAY: '1000000',
};

export interface AppOptions extends BootOptions {
  /** Mail goes to the instance's outbox directory (SMTP_HOST empty), read through `app.outbox`. */
  outbox?: boolean;
  /** 'raised': RAISED_LIMITS; 'off': no auth rate limit at all (AUTH_RATELIMIT_ENABLED=false). */
  limits?: 'raised' | 'off';
}

export type Answer<T> = Promise<{ status: number; body: T; headers: Headers }>;

export interface TestApp extends TestStrapi {
  /** The outbox of this instance (empty unless booted with `outbox: true`). */
  outbox: ReturnType<typeof createOutboxReader>;
  /** Any JSON request to this instance. */
  call<T = unknown>(method: string, urlPath: string, options?: { body?: unknown; token?: string }): Answer<T>;
  /** Signs a member up (expecting 200); the password defaults to `<username>-Pass-1`, the e-mail to `<username>@example.com`. */
  register(username: string, options?: { email?: string; password?: string }): Promise<Member>;
  /** POST /api/auth/local. */
  login(identifier: string, password: string): Answer<AuthResponse & ApiError>;
  /** GET /api/users/me with the token. */
  me<T = AuthResponse['user'] & ApiError>(jwt: string): Answer<T>;
}

const LIMITS = { raised: RAISED_LIMITS, off: { AUTH_RATELIMIT_ENABLED: 'false' } };

/** Boots the app (helpers/strapi.ts) with the scaffold's helpers; options.env is applied last. */
export async function boot({ outbox = false, limits, env, ...options }: AppOptions = {}): Promise<TestApp> {
  const app = await bootStrapi({
    ...options,
    env: { ...(outbox ? { SMTP_HOST: '' } : {}), ...(limits ? LIMITS[limits] : {}), ...env },
  });
  const call = <T>(method: string, urlPath: string, callOptions?: { body?: unknown; token?: string }) =>
    request<T>(app.baseUrl, method, urlPath, callOptions);
  return {
    ...app,
    outbox: createOutboxReader(app.outboxDir),
    call,
    register: (username, options) => signUp(app.baseUrl, username, options),
    login: (identifier, password) => call('POST', '/api/auth/local', { body: { identifier, password } }),
    me: (jwt) => call('GET', '/api/users/me', { token: jwt }),
  };
}
