import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { request, requestFrom } from '../helpers/strapi';
import { resetCodeOf } from '../helpers/outbox';
import { boot, type TestApp } from '../helpers/app';
import { freshClient } from '../helpers/instances';
import type { ApiError, AuthResponse } from '../helpers/types';
import { migrateUsernames } from '../../src/security/identifiers';
import { signUp, type Member } from '../helpers/members';

/**
 * The attacks of the security review, each made against a running server, then proven to fail by
 * re-reading the victim's data (with the victim's own token or straight from the database).
 */

const USERS = 'plugin::users-permissions.user';
const PUBLIC_URL = 'https://carnivo.example';
const ADDRESS_LIMIT_PER_DAY = 4;

let app: TestApp;

type Me = { id: number; username: string; email: string } & Partial<ApiError>;

// Each sign-up from a fresh client address: the per-address day limit below would stop a fifth from one.
const register = (username: string, email?: string) => signUp(app.baseUrl, username, { email, from: freshClient() });
/** A log-in from `from` (the password-spray test sends each from an address of its own), else from 127.0.0.1 as app.login. */
const login = (identifier: string, password: string, from?: string) =>
  from
    ? requestFrom<AuthResponse & ApiError>(from, app.baseUrl, 'POST', '/api/auth/local', { body: { identifier, password } })
    : app.login(identifier, password);
const me = (jwt: string) => app.me<Me>(jwt);
const stored = (id: number) => app.strapi.db.query(USERS).findOne({ where: { id } }) as Promise<Record<string, unknown> | null>;
const put = (member: Member, body: unknown, jwt = member.jwt) =>
  request<Me>(app.baseUrl, 'PUT', `/api/users/${member.id}`, { body, token: jwt });

beforeAll(async () => {
  app = await boot({
    outbox: true,
    // The per-route limit is not what these tests are about; the per-address day limit is.
    limits: 'raised',
    env: { PUBLIC_URL, CORS_ORIGINS: 'https://partner.example', AUTH_ADDRESS_LIMIT_PER_DAY: String(ADDRESS_LIMIT_PER_DAY) },
  });
});

afterAll(() => app?.stop());

describe('sessions end when the password changes, is reset, or the member logs out everywhere', () => {
  it('a token stolen before a password change no longer reads or writes the account; the new one does', async () => {
    const victim = await register('sess_change');
    const stolen = victim.jwt;
    expect((await me(stolen)).status).toBe(200);

    const changed = await request<AuthResponse & ApiError>(app.baseUrl, 'POST', '/api/auth/change-password', {
      token: victim.jwt,
      body: { currentPassword: victim.password, password: 'New-Pass-2', passwordConfirmation: 'New-Pass-2' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.jwt).toEqual(expect.any(String));
    expect(changed.body.jwt).not.toBe(stolen);

    expect((await me(stolen)).status).toBe(401);
    const attack = await put(victim, { username: 'hijacked' }, stolen);
    expect(attack.status).toBe(401);

    const own = await me(changed.body.jwt);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: victim.id, username: 'sess_change' });
  });

  it('a password reset by e-mailed code ends every earlier session', async () => {
    const victim = await register('sess_reset');
    const stolen = victim.jwt;
    const forgot = await requestFrom(freshClient(), app.baseUrl, 'POST', '/api/auth/forgot-password', { body: { email: victim.email } });
    expect(forgot.status).toBe(200);
    const code = resetCodeOf(await app.outbox.next(victim.email));
    const reset = await request(app.baseUrl, 'POST', '/api/auth/reset-password', {
      body: { code, password: 'Reset-Pass-3', passwordConfirmation: 'Reset-Pass-3' },
    });
    expect(reset.status).toBe(200);

    expect((await me(stolen)).status).toBe(401);
    expect((await put(victim, { username: 'hijacked2' }, stolen)).status).toBe(401);
    const fresh = await login(victim.email, 'Reset-Pass-3');
    expect(fresh.status).toBe(200);
    expect((await me(fresh.body.jwt)).body).toMatchObject({ id: victim.id, username: 'sess_reset' });
  });

  it('a password set anywhere else (e.g. the admin panel, through the user service) ends earlier sessions too', async () => {
    const victim = await register('sess_admin');
    await app.strapi.plugin('users-permissions').service('user').edit(victim.id, { password: 'Admin-Set-4' });
    expect((await me(victim.jwt)).status).toBe(401);
  });

  it('"Log out of all devices" ends every session of the member, on every device, and only theirs', async () => {
    const victim = await register('sess_all');
    const bystander = await register('sess_bystander');
    const phone = (await login(victim.email, victim.password)).body.jwt;
    const laptop = (await login('SESS_ALL', victim.password)).body.jwt;
    expect((await me(phone)).status).toBe(200);

    const out = await request<{ ok: boolean }>(app.baseUrl, 'POST', '/api/auth/logout-all', { token: laptop });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ ok: true });

    for (const token of [victim.jwt, phone, laptop]) expect((await me(token)).status).toBe(401);
    expect((await me(bystander.jwt)).body).toMatchObject({ id: bystander.id });
    const again = await login(victim.email, victim.password);
    expect((await me(again.body.jwt)).body).toMatchObject({ id: victim.id });

    expect((await request(app.baseUrl, 'POST', '/api/auth/logout-all')).status).toBe(401);
  });

  it("a deleted account's token does not reach the account created later with the same address", async () => {
    const first = await register('sess_deleted');
    const deleted = await request(app.baseUrl, 'DELETE', '/api/users-permissions/users/delete-account', { token: first.jwt });
    expect(deleted.status).toBe(200);
    const second = await register('sess_deleted2', first.email);
    expect((await me(first.jwt)).status).toBe(401);
    expect((await me(second.jwt)).body).toMatchObject({ id: second.id, email: first.email });
  });
});

describe('log-in identifiers are unambiguous', () => {
  it("a member cannot take another (or a future) member's e-mail address as username", async () => {
    const mallory = await register('mallory');
    const squat = await put(mallory, { username: 'victim@example.com' });
    expect(squat.status).toBe(400);
    expect(squat.body.error?.message).toBe('Username may only contain letters, digits, ".", "_" and "-"');
    expect((await stored(mallory.id))?.username).toBe('mallory');

    // The victim signs up later and logs in with their e-mail: it is their own account that opens.
    const victim = await register('victim', 'victim@example.com');
    const res = await login('victim@example.com', victim.password);
    expect(res.status).toBe(200);
    expect((await me(res.body.jwt)).body).toMatchObject({ id: victim.id, email: 'victim@example.com' });
  });

  it('usernames are unique whatever their case, at registration and on update', async () => {
    const carol = await register('carol');
    const clash = await requestFrom<ApiError>(freshClient(), app.baseUrl, 'POST', '/api/auth/local/register', {
      body: { username: 'CAROL', email: 'other-carol@example.com', password: 'Carol-Pass-9' },
    });
    expect(clash.status).toBe(400);
    expect(clash.body.error.message).toBe('Username already taken');
    expect(await app.strapi.db.query(USERS).count({ where: { email: 'other-carol@example.com' } })).toBe(0);

    const dave = await register('dave');
    const rename = await put(dave, { username: 'Carol' });
    expect(rename.status).toBe(400);
    expect(rename.body.error?.message).toBe('Username already taken');
    expect((await stored(dave.id))?.username).toBe('dave');
    // Changing only the case of one's own name is fine.
    expect((await put(carol, { username: 'Carol' })).status).toBe(200);

    // The database itself refuses a racing duplicate that slipped past the check.
    await expect(
      app.strapi.db.query(USERS).create({ data: { username: 'CaRoL', email: 'race@example.com', provider: 'local' } }),
    ).rejects.toThrow();
  });

  it('refuses usernames outside 3-30 letters, digits, ".", "_" and "-" at registration', async () => {
    for (const [username, message] of [
      ['with space', 'Username may only contain letters, digits, ".", "_" and "-"'],
      ['a@b.co', 'Username may only contain letters, digits, ".", "_" and "-"'],
      ['x'.repeat(31), 'Username must be at most 30 characters'],
      ['ab', 'Username must be at least 3 characters'],
    ]) {
      const res = await requestFrom<ApiError>(freshClient(), app.baseUrl, 'POST', '/api/auth/local/register', {
        body: { username, email: `reg${username.length}@example.com`, password: 'Some-Pass-1' },
      });
      expect(res.status, username).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
  });

  it('logs in by username in any case, by e-mail only with an "@"', async () => {
    const erin = await register('Erin.B');
    const byName = await login('erin.b', erin.password);
    expect(byName.status).toBe(200);
    expect((await me(byName.body.jwt)).body).toMatchObject({ id: erin.id });
    // An e-mail-looking identifier is matched against e-mail addresses only.
    expect((await login('Erin.B@', erin.password)).status).toBe(400);
  });

  it('migrates existing rows cleanly: bad or clashing usernames are renamed, then the database enforces the rule', async () => {
    const knex = app.strapi.db.connection;
    await knex.raw('DROP INDEX IF EXISTS up_users_username_ci_unique');
    // Rows as an older version could leave them.
    const legacy = [
      { username: 'squatter@example.com', email: 'squatter@example.net' },
      { username: 'frank', email: 'frank@example.com' },
      { username: 'Frank', email: 'frank2@example.com' },
      { username: 'has space', email: 'space@example.com' },
      { username: 'y'.repeat(45), email: 'long@example.com' },
    ];
    const ids: number[] = [];
    for (const row of legacy) {
      const created = await app.strapi.db.query(USERS).create({ data: { ...row, provider: 'local', confirmed: true } });
      ids.push(created.id);
    }
    await migrateUsernames(app.strapi);

    const after = await Promise.all(ids.map(async (id) => (await stored(id))?.username as string));
    expect(after[1]).toBe('frank');
    for (const name of after) {
      expect(name).toMatch(/^[A-Za-z0-9._-]{3,30}$/);
    }
    expect(new Set(after.map((name) => name.toLowerCase())).size).toBe(after.length);
    expect(after[0]).toBe(`squatter-${ids[0]}`);
    expect(after[2]).toBe(`Frank-${ids[2]}`);
    // Idempotent, and the index is back.
    await migrateUsernames(app.strapi);
    expect((await stored(ids[1]))?.username).toBe('frank');
    await expect(
      app.strapi.db.query(USERS).create({ data: { username: 'FRANK', email: 'frank3@example.com', provider: 'local' } }),
    ).rejects.toThrow();
  });
});

describe('changing the e-mail address needs the current password', () => {
  it('a stolen token alone cannot move the e-mail (and so cannot reset the password)', async () => {
    const victim = await register('grace');
    for (const [body, message] of [
      [{ email: 'attacker@example.com' }, 'Please enter your current password to change your email.'],
      [{ email: 'attacker@example.com', currentPassword: 'guess' }, 'The provided current password is invalid'],
    ] as const) {
      const res = await put(victim, body);
      expect(res.status).toBe(400);
      expect(res.body.error?.message).toBe(message);
    }
    expect((await me(victim.jwt)).body.email).toBe('grace@example.com');
    expect((await stored(victim.id))?.email).toBe('grace@example.com');

    // The same address in another case is no change; other fields need no password.
    expect((await put(victim, { email: 'Grace@Example.com', username: 'grace_h' })).status).toBe(200);
  });

  it('with the password the new address gets a confirmation link, and the old address is told with a cancel link', async () => {
    const member = await register('heidi');
    const res = await put(member, { email: 'heidi.new@example.com', currentPassword: member.password });
    expect(res.status).toBe(200);
    // Nothing changes until the link is opened (server/tests/email-change-verified.test.ts attacks it).
    expect((await me(member.jwt)).body.email).toBe('heidi@example.com');
    const link = await app.outbox.next('heidi.new@example.com');
    expect(link.headers.subject).toBe('Confirm the new e-mail address of your Carnivo account');
    expect(link.text).toMatch(/\/email-change\/confirm\?token=/);
    const notice = await app.outbox.next('heidi@example.com');
    expect(notice.headers.subject).toBe('A change of your Carnivo e-mail address was requested');
    expect(notice.text).toContain('from heidi@example.com to heidi.new@example.com');
    expect(notice.text).toMatch(/\/email-change\/cancel\?token=/);
  });

  it('an account that signs in with a provider has no password, so its e-mail stays', async () => {
    const social = await register('ivan');
    await app.strapi.db.query(USERS).update({ where: { id: social.id }, data: { provider: 'google', password: null } });
    const res = await put(social, { email: 'ivan.new@example.com', currentPassword: 'anything' });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe('Your email cannot be changed because this account signs in with Google, Apple or Facebook.');
    expect((await stored(social.id))?.email).toBe('ivan@example.com');
  });
});

describe('anti-automation on the routes that create accounts or send e-mail', () => {
  it('limits registrations per client address whatever the e-mail', async () => {
    const client = freshClient();
    const statuses: number[] = [];
    for (let i = 0; i <= ADDRESS_LIMIT_PER_DAY; i += 1) {
      const res = await requestFrom<ApiError>(client, app.baseUrl, 'POST', '/api/auth/local/register', {
        body: { username: `bot${i}`, email: `bot${i}@spam.example`, password: 'Bot-Pass-1' },
      });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body.error.message).toMatch(/^Too many requests from your network\. Please try again in \d+ (minutes|seconds)\.$/);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([...Array(ADDRESS_LIMIT_PER_DAY).fill(200), 429]);
    expect(await app.strapi.db.query(USERS).count({ where: { email: { $endsWith: '@spam.example' } } })).toBe(ADDRESS_LIMIT_PER_DAY);
    // Another client is not affected.
    expect((await register('not_a_bot')).id).toEqual(expect.any(Number));
  });

  it('limits reset e-mails per client address whatever the e-mail', async () => {
    const targets = await Promise.all([0, 1, 2, 3, 4].map((i) => register(`reset_target${i}`)));
    const client = freshClient();
    const statuses: number[] = [];
    for (const target of targets) {
      statuses.push(
        (await requestFrom(client, app.baseUrl, 'POST', '/api/auth/forgot-password', { body: { email: target.email } })).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    for (const target of targets.slice(0, 4)) await app.outbox.next(target.email);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(app.outbox.take(targets[4].email)).toHaveLength(0);
  });

  it('send-email-confirmation answers the same for unknown, confirmed and unconfirmed addresses', async () => {
    const confirmed = await register('judy');
    const pending = await register('karl');
    await app.strapi.db.query(USERS).update({ where: { id: pending.id }, data: { confirmed: false } });
    const client = freshClient();
    const ask = (email: string) =>
      requestFrom<Record<string, unknown>>(client, app.baseUrl, 'POST', '/api/auth/send-email-confirmation', { body: { email } });

    const answers = [await ask(confirmed.email), await ask('nobody@example.com'), await ask(pending.email)];
    for (const [res, email] of answers.map((res, i) => [res, [confirmed.email, 'nobody@example.com', pending.email][i]] as const)) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ email, sent: true });
    }
    // Only the unconfirmed account got mail.
    await app.outbox.next(pending.email);
    expect(app.outbox.take(confirmed.email)).toHaveLength(0);
  });
});

describe('CORS', () => {
  const preflight = (origin: string) =>
    fetch(`${app.baseUrl}/api/users/me`, {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
    });

  it('never reflects an arbitrary origin with credentials', async () => {
    const member = await register('cors_member');
    for (const origin of ['https://evil.example', 'null', 'https://carnivo.example.evil.example']) {
      const pre = await preflight(origin);
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
      const read = await fetch(`${app.baseUrl}/api/users/me`, { headers: { Origin: origin, Authorization: `Bearer ${member.jwt}` } });
      expect(read.headers.get('access-control-allow-origin')).toBeNull();
      expect(read.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it("allows the site's own origin and the configured ones", async () => {
    for (const origin of [PUBLIC_URL, 'https://partner.example']) {
      const pre = await preflight(origin);
      expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
      expect(pre.headers.get('access-control-allow-credentials')).toBe('true');
    }
  });
});

describe('per-account throttling of failed log-ins', () => {
  it('12 wrong passwords from 12 addresses lock the account, even for the right password; a reset lifts it', async () => {
    const victim = await register('spray_victim');
    const attempts = [];
    for (let i = 0; i < 12; i += 1) {
      attempts.push(await login(victim.email, `wrong-${i}`, `127.0.1.${i + 1}`));
    }
    expect(attempts.slice(0, 10).map((res) => res.status)).toEqual(Array(10).fill(400));
    for (const res of attempts.slice(10)) {
      expect(res.status).toBe(429);
      expect(res.body.error.message).toBe('Too many failed log-in attempts. Try again in 15 minutes or reset your password.');
    }

    const right = await login(victim.email, victim.password, '127.0.1.200');
    expect(right.status).toBe(429);
    expect(right.body.jwt).toBeUndefined();
    // By username too: the lock is on the account, not on the identifier typed.
    expect((await login('spray_victim', victim.password, '127.0.1.201')).status).toBe(429);
    // Other accounts are not affected.
    const other = await register('spray_other');
    expect((await login(other.email, other.password, '127.0.1.1')).status).toBe(200);

    await requestFrom(freshClient(), app.baseUrl, 'POST', '/api/auth/forgot-password', { body: { email: victim.email } });
    const code = resetCodeOf(await app.outbox.next(victim.email));
    const reset = await request(app.baseUrl, 'POST', '/api/auth/reset-password', {
      body: { code, password: 'Spray-Reset-1', passwordConfirmation: 'Spray-Reset-1' },
    });
    expect(reset.status).toBe(200);
    const back = await login(victim.email, 'Spray-Reset-1', '127.0.1.202');
    expect(back.status).toBe(200);
    expect((await me(back.body.jwt)).body).toMatchObject({ id: victim.id });
  });
});
