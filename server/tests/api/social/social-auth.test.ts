import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { request } from '../../helpers/strapi';
import type { ApiError, AuthResponse } from '../../helpers/types';
import { newSigningKey, signIdToken, startFacebookDouble, startJwksServer, type SigningKey } from '../../helpers/social-doubles';
import { boot, type TestApp } from '../../helpers/app';

const PUBLIC_URL = 'http://carnivo.test';
const GOOGLE_CLIENT_ID = 'carnivo-test.apps.googleusercontent.com';
const APPLE_SERVICE_ID = 'test.carnivo.signin';
const FACEBOOK = { appId: 'fb-app-123', appSecret: 'fb-secret-456', redirectUri: `${PUBLIC_URL}/auth/facebook/callback` };

let app: TestApp;
let googleKey: SigningKey;
let appleKey: SigningKey;
let googleJwks: Awaited<ReturnType<typeof startJwksServer>>;
let appleJwks: Awaited<ReturnType<typeof startJwksServer>>;
let facebook: Awaited<ReturnType<typeof startFacebookDouble>>;

type Answer = AuthResponse & ApiError;

const googleToken = (claims: Record<string, unknown> = {}, key: SigningKey = googleKey, options = {}) =>
  signIdToken(
    key,
    {
      iss: 'https://accounts.google.com',
      aud: GOOGLE_CLIENT_ID,
      sub: '1000001',
      email: 'gina@example.com',
      email_verified: true,
      ...claims,
    },
    options,
  );

const appleToken = (claims: Record<string, unknown> = {}, key: SigningKey = appleKey) =>
  signIdToken(key, {
    iss: 'https://appleid.apple.com',
    aud: APPLE_SERVICE_ID,
    sub: '001234.apple.subject',
    email: 'x7k2p9q4rs@privaterelay.appleid.com',
    email_verified: 'true',
    is_private_email: 'true',
    ...claims,
  });

const idTokenSignIn = (provider: 'google' | 'apple', token: string) =>
  request<Answer>(app.baseUrl, 'GET', `/api/auth/${provider}/callback?access_token=${encodeURIComponent(token)}`);

const usersWithEmail = (email: string) =>
  app.strapi.db.query('plugin::users-permissions.user').findMany({ where: { email: { $eqi: email } } });

/** GET /api/connect/facebook as a browser would: the provider URL and the state cookie it got. */
async function startFacebookFlow() {
  const res = await fetch(`${app.baseUrl}/api/connect/facebook`, { redirect: 'manual' });
  const cookies = res.headers.getSetCookie();
  return {
    status: res.status,
    location: new URL(res.headers.get('location') ?? 'about:blank'),
    setCookies: cookies,
    cookie: cookies.map((c) => c.split(';')[0]).join('; '),
  };
}

type FacebookFlow = Awaited<ReturnType<typeof startFacebookFlow>>;

/**
 * The SPA's call from /auth/facebook/callback. Given a started flow, it sends that browser's cookie
 * and the state Facebook hands back (unless `extra` sets its own); given a string, only that cookie.
 */
async function facebookCallback(code: string, from?: FacebookFlow | string, extra = '') {
  const cookie = typeof from === 'string' ? from : from?.cookie;
  const state = typeof from === 'object' && !extra.includes('state=') ? `&state=${from.location.searchParams.get('state')}` : '';
  const res = await fetch(`${app.baseUrl}/api/connect/facebook/callback?code=${encodeURIComponent(code)}${state}${extra}`, {
    headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
  });
  return { status: res.status, body: (await res.json()) as Answer, headers: res.headers };
}

/** Temporarily changes config/social.ts values (read per request). */
async function withSocialConfig(changes: Record<string, unknown>, run: () => Promise<void>) {
  const before = Object.fromEntries(Object.keys(changes).map((path) => [path, app.strapi.config.get(`social.${path}`)]));
  for (const [path, value] of Object.entries(changes)) app.strapi.config.set(`social.${path}`, value);
  try {
    await run();
  } finally {
    for (const [path, value] of Object.entries(before)) app.strapi.config.set(`social.${path}`, value);
  }
}

beforeAll(async () => {
  googleKey = await newSigningKey('google-key-1');
  appleKey = await newSigningKey('apple-key-1');
  googleJwks = await startJwksServer([googleKey]);
  appleJwks = await startJwksServer([appleKey]);
  facebook = await startFacebookDouble(FACEBOOK);
  app = await boot({
    limits: 'raised',
    env: {
      PUBLIC_URL,
      GOOGLE_CLIENT_ID,
      GOOGLE_JWKS_URL: googleJwks.url,
      APPLE_SERVICE_ID,
      APPLE_JWKS_URL: appleJwks.url,
      FACEBOOK_APP_ID: FACEBOOK.appId,
      FACEBOOK_APP_SECRET: FACEBOOK.appSecret,
      FACEBOOK_AUTHORIZE_URL: facebook.authorizeUrl,
      FACEBOOK_GRAPH_URL: facebook.graphUrl,
    },
  });
});

afterAll(async () => {
  await app?.stop();
  await Promise.all([googleJwks?.close(), appleJwks?.close(), facebook?.close()]);
});

describe('GET /api/social/config', () => {
  it('reflects the environment, without secrets', async () => {
    const res = await request<Record<string, unknown>>(app.baseUrl, 'GET', '/api/social/config');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      google: { enabled: true, clientId: GOOGLE_CLIENT_ID },
      apple: { enabled: true, clientId: APPLE_SERVICE_ID, redirectURI: `${PUBLIC_URL}/api/connect/apple/callback` },
      facebook: { enabled: true },
    });
    expect(JSON.stringify(res.body)).not.toContain(FACEBOOK.appSecret);
  });

  it('reports unconfigured or switched-off providers as disabled', async () => {
    await withSocialConfig({ 'google.clientId': '', 'apple.switchedOn': false, 'facebook.appSecret': '' }, async () => {
      const res = await request<Record<string, unknown>>(app.baseUrl, 'GET', '/api/social/config');
      expect(res.body).toEqual({
        google: { enabled: false, clientId: null },
        apple: { enabled: false, clientId: null, redirectURI: null },
        facebook: { enabled: false },
      });
    });
  });
});

describe('Google sign-in (GET /api/auth/google/callback?access_token=<ID token>)', () => {
  let first: AuthResponse;

  it('creates the account on the first sign-in and answers jwt + user', async () => {
    const res = await idTokenSignIn('google', await googleToken());
    expect(res.status).toBe(200);
    first = res.body;
    expect(first.jwt).toEqual(expect.any(String));
    expect(first.user).toMatchObject({
      username: 'gina',
      email: 'gina@example.com',
      provider: 'google',
      confirmed: true,
      blocked: false,
    });
    expect(first.user.documentId).toEqual(expect.any(String));
    expect(Date.now() - Date.parse(first.user.createdAt)).toBeLessThan(60_000);
    expect(first.user).not.toHaveProperty('password');

    const stored = await app.strapi.db
      .query('plugin::users-permissions.user')
      .findOne({ where: { id: first.user.id }, populate: ['role'] });
    expect(stored.role.type).toBe('authenticated');

    const me = await app.me<{ id: number }>(first.jwt);
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(first.user.id);
  });

  it('finds the same account on the second sign-in (no duplicate), also for the bare issuer', async () => {
    const res = await idTokenSignIn('google', await googleToken({ iss: 'accounts.google.com', email: 'Gina@Example.com' }));
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(first.user.id);
    expect(await usersWithEmail('gina@example.com')).toHaveLength(1);
  });

  it('creates one account when two first sign-ins arrive together', async () => {
    const token = await googleToken({ email: 'twin@example.com', sub: '1000002' });
    const [a, b] = await Promise.all([idTokenSignIn('google', token), idTokenSignIn('google', token)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.user.id).toBe(b.body.user.id);
    expect(await usersWithEmail('twin@example.com')).toHaveLength(1);
  });

  it("when another instance created the account between the lookup and the insert: signs in to it, or refuses a password account's address", async () => {
    // Another instance's write, made visible only after this one looked: its first lookup of the address reads nothing.
    const staleFirstLookup = (email: string) => {
      const query = app.strapi.db.query.bind(app.strapi.db);
      let stale = true;
      return vi.spyOn(app.strapi.db, 'query').mockImplementation(((uid: string) => {
        const repository = query(uid as never);
        if (uid !== 'plugin::users-permissions.user') return repository;
        return {
          ...repository,
          findMany: async (params: { where?: { email?: { $eqi?: string } } }) => {
            if (stale && params?.where?.email?.$eqi === email) {
              stale = false;
              return [];
            }
            return repository.findMany(params as never);
          },
        };
      }) as typeof app.strapi.db.query);
    };
    const users = app.strapi.db.query('plugin::users-permissions.user');
    const existing = await users.create({
      data: { username: 'raced_google', email: 'raced@example.com', provider: 'google', confirmed: true },
    });
    const spy = staleFirstLookup('raced@example.com');
    try {
      const res = await idTokenSignIn('google', await googleToken({ email: 'raced@example.com', sub: '1000009' }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.user.id).toBe(existing.id);
    } finally {
      spy.mockRestore();
    }
    expect((await usersWithEmail('raced@example.com')).map((user) => user.id)).toEqual([existing.id]);

    const local = await users.create({
      data: { username: 'raced_local', email: 'raced.local@example.com', provider: 'local', confirmed: true },
    });
    const again = staleFirstLookup('raced.local@example.com');
    try {
      const res = await idTokenSignIn('google', await googleToken({ email: 'raced.local@example.com', sub: '1000010' }));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(
        /^Email is already taken: this e-mail address belongs to an account that logs in with a password/,
      );
    } finally {
      again.mockRestore();
    }
    expect((await usersWithEmail('raced.local@example.com')).map((user) => user.id)).toEqual([local.id]);
  });

  it('gives a unique username when the e-mail local part is taken', async () => {
    const res = await idTokenSignIn('google', await googleToken({ email: 'gina@other.example', sub: '1000003' }));
    expect(res.status).toBe(200);
    expect(res.body.user.username).toMatch(/^gina\d{4}$/);
  });

  const invalid = 'The Google sign-in token is invalid or has expired.';

  it.each([
    ['a wrong audience', () => googleToken({ aud: 'someone-else.apps.googleusercontent.com', email: 'aud@example.com' })],
    ['a wrong issuer', () => googleToken({ iss: 'https://evil.example', email: 'iss@example.com' })],
    [
      'an expired token',
      () =>
        googleToken({ email: 'old@example.com' }, googleKey, {
          issuedAt: Math.floor(Date.now() / 1000) - 7200,
          expiresIn: Math.floor(Date.now() / 1000) - 3600,
        }),
    ],
    [
      'a signature by a key Google does not publish',
      async () => googleToken({ email: 'forged@example.com' }, await newSigningKey('unknown-kid')),
    ],
    [
      "a signature by another key under Google's key id",
      async () => googleToken({ email: 'forged2@example.com' }, await newSigningKey(googleKey.kid)),
    ],
    ['a token that is not a JWT', async () => 'not-a-token'],
  ])('refuses %s with 401', async (_label, makeToken) => {
    const before = await app.strapi.db.query('plugin::users-permissions.user').count();
    const res = await idTokenSignIn('google', await makeToken());
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe(invalid);
    expect(res.body).not.toHaveProperty('jwt');
    expect(await app.strapi.db.query('plugin::users-permissions.user').count()).toBe(before);
  });

  it('refuses an Apple-signed token', async () => {
    const res = await idTokenSignIn('google', await appleToken({ aud: GOOGLE_CLIENT_ID, iss: 'https://accounts.google.com' }));
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe(invalid);
  });

  it('refuses an unverified e-mail address', async () => {
    const res = await idTokenSignIn('google', await googleToken({ email: 'unverified@example.com', email_verified: false }));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Your Google account e-mail is not verified.');
    expect(await usersWithEmail('unverified@example.com')).toHaveLength(0);
  });

  it('refuses a request without a token', async () => {
    const res = await request<Answer>(app.baseUrl, 'GET', '/api/auth/google/callback');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Google sign-in failed: no Google sign-in token was sent.');
  });

  it('refuses when the e-mail belongs to a password account, saying so', async () => {
    await app.register('paula', { password: 'correct-horse-9' });

    const res = await idTokenSignIn('google', await googleToken({ email: 'PAULA@example.com', sub: '1000004' }));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      'Email is already taken: this e-mail address belongs to an account that logs in with a password. Log in with your e-mail and password instead.',
    );
    const users = await usersWithEmail('paula@example.com');
    expect(users).toHaveLength(1);
    expect(users[0].provider).toBe('local');
  });

  it('refuses a blocked account', async () => {
    await app.strapi.db.query('plugin::users-permissions.user').update({ where: { id: first.user.id }, data: { blocked: true } });
    try {
      const res = await idTokenSignIn('google', await googleToken());
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('Your account has been blocked by an administrator');
    } finally {
      await app.strapi.db.query('plugin::users-permissions.user').update({ where: { id: first.user.id }, data: { blocked: false } });
    }
  });

  it("answers 502 when Google's keys cannot be fetched", async () => {
    await withSocialConfig({ 'google.jwksUrl': 'http://127.0.0.1:9/keys' }, async () => {
      const res = await idTokenSignIn('google', await googleToken());
      expect(res.status).toBe(502);
      expect(res.body.error.message).toBe("Google sign-in is unavailable right now: Google's signing keys could not be fetched.");
    });
  });

  it('answers a clear 400 when Google sign-in is not set up or switched off', async () => {
    const token = await googleToken();
    for (const change of [{ 'google.clientId': '' }, { 'google.switchedOn': false }]) {
      await withSocialConfig(change, async () => {
        const res = await idTokenSignIn('google', token);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toBe('Google sign-in is not set up on this site.');
      });
    }
  });
});

describe('Apple sign-in (GET /api/auth/apple/callback?access_token=<identity token>)', () => {
  it('accepts a valid identity token (private-relay e-mail, email_verified "true") and finds the account again', async () => {
    const res = await idTokenSignIn('apple', await appleToken());
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      email: 'x7k2p9q4rs@privaterelay.appleid.com',
      provider: 'apple',
      confirmed: true,
      username: 'x7k2p9q4rs',
    });
    const again = await idTokenSignIn('apple', await appleToken({ email_verified: true }));
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(res.body.user.id);
  });

  it('refuses a wrong audience, a Google token and an unverified e-mail', async () => {
    const wrongAud = await idTokenSignIn('apple', await appleToken({ aud: 'other.service.id', email: 'a1@example.com' }));
    expect(wrongAud.status).toBe(401);
    expect(wrongAud.body.error.message).toBe('The Apple sign-in token is invalid or has expired.');

    const google = await idTokenSignIn('apple', await googleToken({ aud: APPLE_SERVICE_ID }));
    expect(google.status).toBe(401);
    expect(google.body.error.message).toBe('The Apple sign-in token is invalid or has expired.');

    const unverified = await idTokenSignIn('apple', await appleToken({ email: 'a2@example.com', email_verified: 'false' }));
    expect(unverified.status).toBe(400);
    expect(unverified.body.error.message).toBe('Your Apple account e-mail is not verified.');
  });

  it('answers a clear 400 when Apple sign-in is not set up', async () => {
    await withSocialConfig({ 'apple.clientId': '' }, async () => {
      const res = await idTokenSignIn('apple', await appleToken());
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('Apple sign-in is not set up on this site.');
    });
  });

  it('explains that the Apple and Google connect callbacks are not used', async () => {
    const apple = await request<Answer>(app.baseUrl, 'GET', '/api/connect/apple/callback?code=abc');
    expect(apple.status).toBe(400);
    expect(apple.body.error.message).toBe('Apple sign-in does not use this callback: use Continue with Apple on the log-in page.');

    const google = await fetch(`${app.baseUrl}/api/connect/google`, { redirect: 'manual' });
    expect(google.status).toBe(302);
    expect(google.headers.get('location')).toBe(
      `${PUBLIC_URL}/auth/google/callback?error=${encodeURIComponent('Google sign-in starts on the log-in page (Continue with Google).')}`,
    );
  });
});

describe('Facebook sign-in (GET /api/connect/facebook, then /api/connect/facebook/callback?code=…)', () => {
  it('sends the browser to the login dialog with client id, redirect URI, state and scope', async () => {
    const flow = await startFacebookFlow();
    expect(flow.status).toBe(302);
    expect(`${flow.location.origin}${flow.location.pathname}`).toBe(facebook.authorizeUrl);
    expect(Object.fromEntries(flow.location.searchParams)).toEqual({
      client_id: FACEBOOK.appId,
      redirect_uri: FACEBOOK.redirectUri,
      state: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      scope: 'email',
      response_type: 'code',
    });
    const stateCookie = flow.setCookies.find((c) => c.startsWith('carnivo_fb_state='));
    expect(stateCookie).toMatch(/path=\/api\/connect\/facebook/i);
    expect(stateCookie).toMatch(/httponly/i);
    expect(stateCookie).toMatch(/samesite=lax/i);
  });

  it('exchanges the code at the Graph API and answers jwt + user; the second sign-in finds the same user', async () => {
    const flow = await startFacebookFlow();
    const seen = facebook.requests.length;
    const res = await facebookCallback('fb-ok-fiona', flow);
    expect(res.status).toBe(200);
    expect(res.body.jwt).toEqual(expect.any(String));
    expect(res.body.user).toMatchObject({ email: 'fb_fiona@example.test', provider: 'facebook', confirmed: true, username: 'fb_fiona' });
    expect(Date.now() - Date.parse(res.body.user.createdAt)).toBeLessThan(60_000);

    const calls = facebook.requests.slice(seen);
    expect(calls.map((c) => c.path)).toEqual(['/v19.0/oauth/access_token', '/v19.0/me']);
    expect(calls[0].query).toEqual({
      client_id: FACEBOOK.appId,
      client_secret: FACEBOOK.appSecret,
      redirect_uri: FACEBOOK.redirectUri,
      code: 'fb-ok-fiona',
    });
    expect(calls[1].query).toMatchObject({
      fields: 'id,name,email',
      access_token: expect.any(String),
      appsecret_proof: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // The state cookie is used up.
    expect(res.headers.getSetCookie().some((c) => c.startsWith('carnivo_fb_state=;'))).toBe(true);

    const again = await facebookCallback('fb-ok-fiona', await startFacebookFlow());
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(res.body.user.id);
    expect(await usersWithEmail('fb_fiona@example.test')).toHaveLength(1);
  });

  it("answers 400 with the Graph API's reason when the code exchange fails", async () => {
    const res = await facebookCallback('expired-or-forged', await startFacebookFlow());
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Facebook sign-in failed: Invalid verification code format.');
  });

  it('refuses an account without an e-mail address', async () => {
    const res = await facebookCallback('fb-noemail-nora', await startFacebookFlow());
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Your Facebook account has no e-mail address.');
  });

  it('refuses an e-mail that belongs to a password account', async () => {
    facebook.addCode('fb-paula', { id: 'p1', name: 'Paula', email: 'Paula@Example.com' });
    const res = await facebookCallback('fb-paula', await startFacebookFlow());
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^Email is already taken: .* logs in with a password/);
  });

  it('refuses a callback this browser did not start, or with another state (login CSRF)', async () => {
    const noCookie = await facebookCallback('fb-ok-mallory', undefined, '&state=from-an-attackers-flow');
    expect(noCookie.status).toBe(400);
    expect(noCookie.body.error.message).toBe(
      'Facebook sign-in failed: the sign-in was not started from this browser, or it took too long. Please try again.',
    );

    const forgedCookie = await facebookCallback('fb-ok-mallory', 'carnivo_fb_state=abc.9999999999999; carnivo_fb_state.sig=forged');
    expect(forgedCookie.status).toBe(400);

    const flow = await startFacebookFlow();
    const wrongState = await facebookCallback('fb-ok-mallory', flow, '&state=another-state');
    expect(wrongState.status).toBe(400);
    expect(wrongState.body.error.message).toBe('Facebook sign-in failed: the sign-in state does not match. Please try again.');
    expect(await usersWithEmail('fb_mallory@example.test')).toHaveLength(0);

    const rightState = await facebookCallback('fb-ok-mallory', flow);
    expect(rightState.status).toBe(200);
  });

  it("refuses a callback without the state, even while this browser's state cookie lives", async () => {
    const flow = await startFacebookFlow();
    const noState = await facebookCallback('fb-ok-stateless', flow.cookie);
    expect(noState.status).toBe(400);
    expect(noState.body.error.message).toBe('Facebook sign-in failed: the sign-in state is missing. Please try again.');
    expect(noState.body.jwt).toBeUndefined();
    // Nothing was signed in or created, and Facebook was never asked to exchange the code.
    expect(await usersWithEmail('fb_stateless@example.test')).toHaveLength(0);
    expect(facebook.requests.some((call) => call.query.code === 'fb-ok-stateless')).toBe(false);
  });

  it("refuses a callback without a code, or with the provider's error", async () => {
    const flow = await startFacebookFlow();
    const noCode = await request<Answer>(app.baseUrl, 'GET', '/api/connect/facebook/callback');
    expect(noCode.status).toBe(400);
    expect(noCode.body.error.message).toBe('Facebook sign-in failed: no authorization code was received.');
    const denied = await fetch(`${app.baseUrl}/api/connect/facebook/callback?error=access_denied&error_description=Permissions%20error`, {
      headers: { Cookie: flow.cookie },
    });
    expect(denied.status).toBe(400);
    expect(((await denied.json()) as ApiError).error.message).toBe('Facebook sign-in failed: Permissions error');
  });

  it('answers 502 when Facebook cannot be reached', async () => {
    const flow = await startFacebookFlow();
    await withSocialConfig({ 'facebook.graphUrl': 'http://127.0.0.1:9/v19.0' }, async () => {
      const res = await facebookCallback('fb-ok-offline', flow);
      expect(res.status).toBe(502);
      expect(res.body.error.message).toBe('Facebook sign-in is unavailable right now: Facebook could not be reached.');
    });
  });

  it('when not set up: the navigation goes back to the SPA with the message, the callback answers 400', async () => {
    await withSocialConfig({ 'facebook.appSecret': '' }, async () => {
      const nav = await fetch(`${app.baseUrl}/api/connect/facebook`, { redirect: 'manual' });
      expect(nav.status).toBe(302);
      expect(nav.headers.get('location')).toBe(
        `${PUBLIC_URL}/auth/facebook/callback?error=Facebook%20sign-in%20is%20not%20set%20up%20on%20this%20site.`,
      );
      const callback = await facebookCallback('fb-ok-x');
      expect(callback.status).toBe(400);
      expect(callback.body.error.message).toBe('Facebook sign-in is not set up on this site.');
    });
  });

  it('does not take Facebook access tokens at /api/auth/facebook/callback', async () => {
    const res = await request<Answer>(app.baseUrl, 'GET', '/api/auth/facebook/callback?access_token=abc');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/goes through \/api\/connect\/facebook/);
  });
});

describe('other providers and the local login', () => {
  it("leaves password login and the plugin's other providers alone", async () => {
    const login = await app.login('paula@example.com', 'correct-horse-9');
    expect(login.status).toBe(200);
    const github = await request<Answer>(app.baseUrl, 'GET', '/api/auth/github/callback?access_token=abc');
    expect(github.status).toBe(400);
    expect(github.body.error.message).toBe('This provider is disabled');
  });

  it("mirrors the configuration into the admin panel's provider settings, without secrets", async () => {
    const grant = (await app.strapi.store({ type: 'plugin', name: 'users-permissions', key: 'grant' }).get()) as Record<
      string,
      Record<string, unknown>
    >;
    expect(grant.google).toMatchObject({ enabled: true, key: GOOGLE_CLIENT_ID, secret: '' });
    expect(grant.apple).toMatchObject({ enabled: true, key: APPLE_SERVICE_ID, secret: '' });
    expect(grant.facebook).toMatchObject({ enabled: true, key: FACEBOOK.appId, secret: '' });
  });
});
