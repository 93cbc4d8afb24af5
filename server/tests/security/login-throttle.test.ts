import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { boot, type TestApp } from '../helpers/app';
import { freshClient } from '../helpers/instances';
import { signUp } from '../helpers/members';
import { request, requestFrom } from '../helpers/strapi';
import type { ApiError, AuthResponse } from '../helpers/types';

/**
 * The per-account log-in throttle, made against one server on SQLite: it does not tell whether an
 * account exists, case variants do not bypass it, and the admin panel's log-in has it too, with the
 * per-address limit on the admin auth routes. Each attack is proven to fail by logging in with the
 * victim's right password (refused while locked: no token, no session stored).
 */

const LOCKED = 'Too many failed log-in attempts. Try again in 15 minutes or reset your password.';

let app: TestApp;

type Answer = AuthResponse & Omit<ApiError, 'data'> & { data?: { token?: string; user?: { id: number; email: string } } };
const post = (urlPath: string, body: unknown, from = freshClient()) => requestFrom<Answer>(from, app.baseUrl, 'POST', urlPath, { body });
/** What a client sees of an answer: status, message, Retry-After. */
const seen = (res: { status: number; body: Answer; headers: Record<string, unknown> }) => ({
  status: res.status,
  message: res.body.error?.message,
  retryAfter: res.headers['retry-after'],
});

beforeAll(async () => {
  // Default limits: 10 a minute per route and client address, so every attempt below comes from its own address.
  app = await boot({ outbox: true });
});

afterAll(async () => {
  await app?.stop();
});

const registerMember = (username: string) => signUp(app.baseUrl, username, { from: freshClient() });

async function createAdmin(email: string) {
  const superAdmin = await app.strapi.service('admin::role').getSuperAdmin();
  const password = 'Admin-Passw0rd';
  const admin = await app.strapi
    .service('admin::user')
    .create({ email, password, firstname: 'Ad', lastname: 'Min', isActive: true, roles: [superAdmin.id] });
  return { id: admin.id as number, email, password };
}
const adminSessions = (id: number) => app.strapi.db.query('admin::session').count({ where: { userId: String(id), origin: 'admin' } });

describe('members: the lock does not tell whether an account exists', () => {
  it('10 failures for an account and for an identifier nobody has answer alike, the 11th included; the right password is refused', async () => {
    const victim = await registerMember('enum_victim');
    // Case and spaces vary from attempt to attempt: neither buys a fresh count.
    const known = [victim.email, victim.email.toUpperCase(), ` ${victim.username.toUpperCase()} `];
    const unknown = ['enum_nobody@example.com', 'ENUM_Nobody@Example.com', ' enum_nobody@EXAMPLE.com '];
    const knownAnswers = [];
    const unknownAnswers = [];
    for (let i = 0; i < 11; i += 1) {
      knownAnswers.push(seen(await post('/api/auth/local', { identifier: known[i % 3], password: `wrong-${i}` })));
      unknownAnswers.push(seen(await post('/api/auth/local', { identifier: unknown[i % 3], password: `wrong-${i}` })));
    }
    expect(unknownAnswers).toEqual(knownAnswers);
    expect(knownAnswers.slice(0, 10)).toEqual(
      Array(10).fill({ status: 400, message: 'Invalid identifier or password', retryAfter: undefined }),
    );
    expect(knownAnswers[10]).toEqual({ status: 429, message: LOCKED, retryAfter: '900' });

    // The member's own password is refused while locked, by e-mail and by username: no token.
    for (const identifier of [victim.email, victim.username]) {
      const right = await post('/api/auth/local', { identifier, password: victim.password });
      expect(seen(right)).toEqual({ status: 429, message: LOCKED, retryAfter: '900' });
      expect(right.body.jwt).toBeUndefined();
    }
  });

  it('an unknown username is counted like a known one, whatever its case', async () => {
    const victim = await registerMember('enum_name');
    const knownAnswers = [];
    const unknownAnswers = [];
    for (let i = 0; i < 11; i += 1) {
      knownAnswers.push(seen(await post('/api/auth/local', { identifier: i % 2 ? 'ENUM_NAME' : 'enum_name', password: 'nope' })));
      unknownAnswers.push(seen(await post('/api/auth/local', { identifier: i % 2 ? 'NOBODY_NAME' : 'nobody_name', password: 'nope' })));
    }
    expect(unknownAnswers).toEqual(knownAnswers);
    expect(knownAnswers.map((answer) => answer.status)).toEqual([...Array(10).fill(400), 429]);
    expect((await post('/api/auth/local', { identifier: victim.email, password: victim.password })).body.jwt).toBeUndefined();
  });
});

describe('a password with a lone UTF-16 surrogate (bcryptjs would never return: the process dies)', () => {
  it('is refused before any password check on every path that takes one, nothing is written, and the server stays up', async () => {
    const member = await registerMember('surrogate_victim');
    const admin = await createAdmin('surrogate.admin@carnivo.example');
    const REFUSED = /^The request body contains a character that is not allowed/;
    for (const password of ['\ud800', `x\udfff${'y'.repeat(50)}`]) {
      const attempts = [
        post('/api/auth/local', { identifier: member.email, password }),
        post('/api/auth/local/register', { username: 'surrogate_new', email: 'surrogate_new@example.com', password }),
        post('/api/auth/reset-password', { code: '12345678', password, passwordConfirmation: password }),
        requestFrom<Answer>(freshClient(), app.baseUrl, 'POST', '/api/auth/change-password', {
          token: (await post('/api/auth/local', { identifier: member.email, password: member.password })).body.jwt,
          body: { currentPassword: member.password, password, passwordConfirmation: password },
        }),
        post('/admin/login', { email: admin.email, password }),
        post('/admin/register-admin', { email: 'other.admin@carnivo.example', password, firstname: 'O', lastname: 'A' }),
      ];
      for (const answer of await Promise.all(attempts)) {
        expect(answer.status).toBe(400);
        expect(answer.body.error?.message).toMatch(REFUSED);
      }
    }
    // Still up; nothing was created, and both passwords are unchanged.
    expect(await app.strapi.db.query('plugin::users-permissions.user').count({ where: { username: 'surrogate_new' } })).toBe(0);
    expect((await post('/api/auth/local', { identifier: member.email, password: member.password })).body.jwt).toEqual(expect.any(String));
    expect((await post('/admin/login', { email: admin.email, password: admin.password })).body.data?.token).toEqual(expect.any(String));
  });
});

describe('the admin panel log-in', () => {
  it('15 wrong passwords from 15 addresses lock the administrator: the right one answers 429 and no token; an unknown e-mail answers alike', async () => {
    const admin = await createAdmin('locked.admin@carnivo.example');
    // The right password works before the attack (and clears nothing that matters).
    const before = await post('/admin/login', { email: admin.email, password: admin.password });
    expect(before.status).toBe(200);
    expect(before.body.data?.token).toEqual(expect.any(String));
    const sessionsBefore = await adminSessions(admin.id);

    const knownAnswers = [];
    const unknownAnswers = [];
    for (let i = 0; i < 15; i += 1) {
      knownAnswers.push(
        seen(await post('/admin/login', { email: i % 2 ? admin.email.toUpperCase() : admin.email, password: `Wrong-Passw0rd-${i}` })),
      );
      unknownAnswers.push(seen(await post('/admin/login', { email: 'no.admin@carnivo.example', password: `Wrong-Passw0rd-${i}` })));
    }
    expect(unknownAnswers).toEqual(knownAnswers);
    expect(knownAnswers.slice(0, 10)).toEqual(Array(10).fill({ status: 400, message: 'Invalid credentials', retryAfter: undefined }));
    expect(knownAnswers.slice(10)).toEqual(
      Array(5).fill({ status: 429, message: LOCKED, retryAfter: expect.stringMatching(/^(899|900)$/) }),
    );

    // The right password, from a fresh address, as typed, in capitals, or in the query string / as a list.
    const attempts = [
      await post('/admin/login', { email: admin.email, password: admin.password }),
      await post('/admin/login', { email: ` ${admin.email.toUpperCase()} `, password: admin.password }),
      await requestFrom<Answer>(
        freshClient(),
        app.baseUrl,
        'POST',
        `/admin/login?email=${encodeURIComponent(admin.email)}&password=${admin.password}`,
      ),
      await post('/ADMIN/Login/', { email: admin.email, password: admin.password }),
    ];
    for (const res of attempts) {
      expect(seen(res)).toMatchObject({ status: 429, message: LOCKED });
      expect(res.body.data?.token).toBeUndefined();
      expect(String(res.headers['set-cookie'] ?? '')).not.toContain('strapi_admin_refresh');
    }
    const asList = await post('/admin/login', { email: [admin.email], password: admin.password });
    expect(asList.status).toBe(400);
    expect(asList.body.data?.token).toBeUndefined();
    // Re-read: no session was stored for the administrator since the attack began.
    expect(await adminSessions(admin.id)).toBe(sessionsBefore);

    // Members are another realm: a member's log-in is not locked by the administrator's.
    const member = await registerMember('admin_realm');
    expect((await post('/api/auth/local', { identifier: member.email, password: member.password })).status).toBe(200);
  });

  it('the per-address limit covers the admin auth routes', async () => {
    const from = freshClient();
    const logins = [];
    for (let i = 0; i < 12; i += 1)
      logins.push(
        (await post(i % 2 ? '/admin/login/' : '/admin/login', { email: `addr${i}@carnivo.example`, password: 'x' }, from)).status,
      );
    expect(logins).toEqual([...Array(10).fill(400), 429, 429]);
    const resets = [];
    for (let i = 0; i < 11; i += 1)
      resets.push((await post('/admin/reset-password', { resetPasswordToken: `t${i}`, password: 'Reset-Passw0rd' }, from)).status);
    expect(resets.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(resets[10]).toBe(429);
    // Another address is not limited.
    expect((await post('/admin/login', { email: 'addr@carnivo.example', password: 'x' })).status).toBe(400);
  });

  it('after the lock the right password works again', async () => {
    // Short locks for this test (config/security.ts loginThrottle: LOGIN_LOCK_SEC, LOGIN_MAX_LOCK_SEC).
    const configured = app.strapi.config.get('security.loginThrottle');
    app.strapi.config.set('security.loginThrottle', { lockSec: 2, maxLockSec: 2 });
    try {
      const admin = await createAdmin('short.lock@carnivo.example');
      for (let i = 0; i < 10; i += 1)
        expect((await post('/admin/login', { email: admin.email, password: `Wrong-Passw0rd-${i}` })).status).toBe(400);
      const refused = await post('/admin/login', { email: admin.email, password: admin.password });
      expect(refused.status).toBe(429);
      expect(refused.body.data?.token).toBeUndefined();
      const wait = Number(refused.headers['retry-after']);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(2);
      await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 300));

      const back = await post('/admin/login', { email: admin.email, password: admin.password });
      expect(back.status).toBe(200);
      const me = await request<{ data: { email: string } }>(app.baseUrl, 'GET', '/admin/users/me', { token: back.body.data!.token });
      expect(me.body.data.email).toBe(admin.email);
    } finally {
      app.strapi.config.set('security.loginThrottle', configured);
    }
  });
});
