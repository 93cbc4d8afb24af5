import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { boot, type TestApp } from '../helpers/app';
import { signUp } from '../helpers/members';
import { settleMail } from '../helpers/mail-queue';
import type { ApiError, AuthResponse } from '../helpers/types';
import { SIGNED_OUT_REASON, type SessionsResponse } from '../../src/contract/sessions';
import { issueSession } from '../../src/security/sessions/tokens';
import { newSessionId, recordSession } from '../../src/security/sessions/records';
import { currentCredentialStamp } from '../../src/security/sessions/credentials';

/**
 * Signed-in devices and sign-in alerts (src/security/sessions/): every token has a session
 * row; a member lists and signs out their own sessions only; a revoked or unknown session's token is
 * refused; a sign-in from a device the account has not used is told by e-mail, once.
 */

const PUBLIC_URL = 'https://carnivo.test';
const SESSIONS = 'api::member-session.member-session';
const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/131.0 Mobile/15E148 Safari/605.1.15';
const SAFARI_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

let app: TestApp;
let outbox: TestApp['outbox'];
let counter = 0;

type Answer = Partial<AuthResponse> & Partial<ApiError> & Partial<SessionsResponse> & { ok?: boolean };

async function call(method: string, urlPath: string, options: { body?: unknown; token?: string; agent?: string } = {}) {
  const res = await fetch(app.baseUrl + urlPath, {
    method,
    headers: {
      'User-Agent': options.agent ?? CHROME_WINDOWS,
      ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Answer };
}

// The sign-up's session is recorded with its device: the browser is named.
const member = (agent = CHROME_WINDOWS) => signUp(app.baseUrl, `device${++counter}`, { headers: { 'User-Agent': agent } });

async function signIn(identifier: string, password: string, agent: string): Promise<string> {
  const res = await call('POST', '/api/auth/local', { body: { identifier, password }, agent });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.jwt!;
}

const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
const sidOf = (token: string) => claims(token).sid as string;
const works = async (token: string) => (await call('GET', '/api/users/me', { token })).status;
/** What a refused token is told: signed out from another device, or Strapi's words for any other bad token. */
const refusal = async (token: string) => {
  const res = await call('GET', '/api/users/me', { token });
  return { status: res.status, message: res.body.error?.message, details: res.body.error?.details };
};
const SIGNED_OUT = { status: 401, message: 'You were signed out from another device.', details: { reason: SIGNED_OUT_REASON } };
const CHROME = { device: 'Windows', browser: 'Chrome' };
const sessionRow = (sid: string) => app.strapi.db.query(SESSIONS).findOne({ where: { sid } }) as Promise<Record<string, unknown> | null>;

/** A token signed with the server's secret, as users-permissions signs them, with the claims given. */
function signedToken(payload: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const head = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}`;
  const signature = crypto.createHmac('sha256', process.env.JWT_SECRET!).update(head).digest('base64url');
  return `${head}.${signature}`;
}

/** The sign-in alerts queued for `email` (delivered to the outbox). */
async function alertsTo(email: string) {
  await settleMail(app.strapi);
  return outbox.take(email).filter((mail) => mail.headers.subject === 'New sign-in to your Carnivo account');
}

beforeAll(async () => {
  app = await boot({ outbox: true, limits: 'raised', env: { PUBLIC_URL } });
  outbox = app.outbox;
});

afterAll(async () => {
  await app?.stop();
});

describe('signed-in devices', () => {
  it('lists the member’s sessions with device, browser and times, marking the caller’s own', async () => {
    const alice = await member(CHROME_WINDOWS);
    const phone = await signIn(alice.email, alice.password, FIREFOX_IPHONE);
    expect(sidOf(alice.jwt)).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(sidOf(phone)).not.toBe(sidOf(alice.jwt));

    const list = await call('GET', '/api/sessions', { token: alice.jwt });
    expect(list.status).toBe(200);
    const byId = new Map(list.body.sessions!.map((session) => [session.id, session]));
    expect(byId.size).toBe(2);
    expect(byId.get(sidOf(alice.jwt))).toMatchObject({ device: 'Windows computer', browser: 'Chrome', current: true });
    expect(byId.get(sidOf(phone))).toMatchObject({ device: 'iPhone', browser: 'Firefox', current: false });
    for (const session of list.body.sessions!) {
      expect(Date.parse(session.createdAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(Date.parse(session.lastActiveAt)).toBeGreaterThanOrEqual(Date.parse(session.createdAt));
    }
    // The phone sees the same two, itself as current.
    const fromPhone = await call('GET', '/api/sessions', { token: phone, agent: FIREFOX_IPHONE });
    expect(fromPhone.body.sessions!.filter((session) => session.current).map((session) => session.id)).toEqual([sidOf(phone)]);
  });

  it('signs out one session: its token is refused at once, the others keep working', async () => {
    const bob = await member();
    const laptop = await signIn(bob.email, bob.password, SAFARI_MAC);
    expect(await works(laptop)).toBe(200);

    const res = await call('DELETE', `/api/sessions/${sidOf(laptop)}`, { token: bob.jwt });
    expect(res.status).toBe(200);
    // The laptop is told why (not "expired"), on any authenticated route.
    expect(await refusal(laptop)).toEqual(SIGNED_OUT);
    expect((await call('GET', '/api/sessions', { token: laptop })).body.error?.message).toBe(SIGNED_OUT.message);
    expect(await works(bob.jwt)).toBe(200);
    const list = await call('GET', '/api/sessions', { token: bob.jwt });
    expect(list.body.sessions!.map((session) => session.id)).toEqual([sidOf(bob.jwt)]);
    // Already signed out: nothing left to sign out.
    expect((await call('DELETE', `/api/sessions/${sidOf(laptop)}`, { token: bob.jwt })).status).toBe(404);
  });

  it('signs out the calling session itself', async () => {
    const carol = await member();
    expect((await call('DELETE', `/api/sessions/${sidOf(carol.jwt)}`, { token: carol.jwt })).status).toBe(200);
    expect(await works(carol.jwt)).toBe(401);
  });

  it('another member’s session id is not found, and the victim’s session lives on', async () => {
    const victim = await member();
    const attacker = await member();
    const res = await call('DELETE', `/api/sessions/${sidOf(victim.jwt)}`, { token: attacker.jwt });
    expect(res.status).toBe(404);
    expect(res.body.error?.message).toBe('This session was not found. It may already be signed out.');
    // Re-read: the victim's row is untouched and their token still works; the attacker lists only their own.
    expect((await sessionRow(sidOf(victim.jwt)))?.revoked_at).toBeNull();
    expect(await works(victim.jwt)).toBe(200);
    const attackerList = await call('GET', '/api/sessions', { token: attacker.jwt });
    expect(attackerList.body.sessions!.map((session) => session.id)).toEqual([sidOf(attacker.jwt)]);
    // Not a session id at all, or no token: refused without a trace.
    expect((await call('DELETE', '/api/sessions/..%2F1', { token: attacker.jwt })).status).toBe(404);
    expect((await call('DELETE', `/api/sessions/${sidOf(victim.jwt)}`)).status).toBe(401);
    expect((await call('GET', '/api/sessions')).status).toBe(401);
    expect(await works(victim.jwt)).toBe(200);
  });

  it('refuses a signed token whose session was never recorded, or belongs to another member', async () => {
    const dave = await member();
    const other = await member();
    const now = Date.now();
    const base = { id: dave.id, iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + 3600, iat_ms: now };
    expect(await works(signedToken({ ...base, sid: crypto.randomBytes(24).toString('base64url') }))).toBe(401);
    expect(await works(signedToken({ ...base, sid: sidOf(other.jwt) }))).toBe(401);
    // Another member's signed-out session is not "yours signed out": Strapi's own words.
    expect((await call('DELETE', `/api/sessions/${sidOf(other.jwt)}`, { token: other.jwt })).status).toBe(200);
    expect(await refusal(other.jwt)).toEqual(SIGNED_OUT);
    const foreign = await refusal(signedToken({ ...base, sid: sidOf(other.jwt) }));
    expect(foreign).toMatchObject({ status: 401 });
    expect(foreign.message).not.toBe(SIGNED_OUT.message);
    expect(foreign.details).not.toEqual(SIGNED_OUT.details);
    expect(await works(signedToken({ ...base, sid: 42 }))).toBe(401);
    // No sid, and no legacy row (a member from after the session rows): nothing vouches for it.
    expect(await works(signedToken(base))).toBe(401);
    expect(await works(signedToken({ ...base, sid: sidOf(dave.jwt) }))).toBe(200);
  });

  it('a password change signs the other devices out, and they are told so; the changing device’s new session is the only one listed', async () => {
    const fay = await member();
    const tablet = await signIn(fay.email, fay.password, SAFARI_MAC);
    expect((await sessionRow(sidOf(tablet)))?.revoked_at).toBeNull();
    const res = await call('POST', '/api/auth/change-password', {
      token: fay.jwt,
      body: { currentPassword: fay.password, password: 'Fresh-Pass-42', passwordConfirmation: 'Fresh-Pass-42' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The tablet's row is revoked, as by "Log out of all devices": it hears it was signed out, not that it expired.
    expect(await refusal(tablet)).toEqual(SIGNED_OUT);
    expect((await sessionRow(sidOf(tablet)))?.revoked_at).not.toBeNull();
    // The changing device carries on with the new session it was given (its old token ended, as before).
    expect((await sessionRow(sidOf(fay.jwt)))?.revoked_at).not.toBeNull();
    expect(await works(res.body.jwt!)).toBe(200);
    expect((await sessionRow(sidOf(res.body.jwt!)))?.revoked_at).toBeNull();
    const list = await call('GET', '/api/sessions', { token: res.body.jwt });
    expect(list.body.sessions!.map((session) => session.id)).toEqual([sidOf(res.body.jwt!)]);
  });

  it('a password reset and a confirmed e-mail change sign every device out, and they are told so', async () => {
    const gil = await member();
    const phone = await signIn(gil.email, gil.password, FIREFOX_IPHONE);
    // A reset, by whatever path sets the new hash (the reset route and the admin panel both save it so).
    await app.strapi.plugin('users-permissions').service('user').edit(gil.id, { password: 'Reset-Pass-42' });
    for (const token of [gil.jwt, phone]) {
      expect(await refusal(token)).toEqual(SIGNED_OUT);
      expect((await sessionRow(sidOf(token)))?.revoked_at).not.toBeNull();
    }

    const laptop = await signIn(gil.email, 'Reset-Pass-42', SAFARI_MAC);
    expect(await works(laptop)).toBe(200);
    // A profile save sends the address unchanged: no device is signed out.
    await app.strapi.db.query('plugin::users-permissions.user').update({ where: { id: gil.id }, data: { email: gil.email } });
    expect(await works(laptop)).toBe(200);
    expect((await sessionRow(sidOf(laptop)))?.revoked_at).toBeNull();
    // The e-mail change's link makes this update once clicked (api::account.email-change confirm).
    await app.strapi.db.query('plugin::users-permissions.user').update({ where: { id: gil.id }, data: { email: `new.${gil.email}` } });
    expect(await refusal(laptop)).toEqual(SIGNED_OUT);
    expect((await sessionRow(sidOf(laptop)))?.revoked_at).not.toBeNull();
  });

  it('notes activity at most once a minute', async () => {
    const gus = await member();
    const sid = sidOf(gus.jwt);
    const query = app.strapi.db.query(SESSIONS);
    const halfMinuteAgo = new Date(Date.now() - 30_000);
    await query.update({ where: { sid }, data: { last_active_at: halfMinuteAgo } });
    expect(await works(gus.jwt)).toBe(200);
    expect(new Date((await sessionRow(sid))!.last_active_at as string).getTime()).toBe(halfMinuteAgo.getTime());
    await query.update({ where: { sid }, data: { last_active_at: new Date(Date.now() - 61_000) } });
    expect(await works(gus.jwt)).toBe(200);
    expect(new Date((await sessionRow(sid))!.last_active_at as string).getTime()).toBeGreaterThan(Date.now() - 10_000);
  });

  it('a session signed before a revocation but recorded after it is ended, and its token never handed out', async () => {
    const ivy = await member();
    const issuedAt = Date.now() - 1000;
    // "Log out of all devices" lands between the log-in's signing and its row.
    expect((await call('POST', '/api/auth/logout-all', { token: ivy.jwt })).status).toBe(200);
    const sid = newSessionId();
    const late = recordSession(app.strapi, { sid, memberId: ivy.id, issuedAt, expiresAt: null }, { device: 'Windows', browser: 'Chrome' });
    await expect(late).rejects.toThrow(SIGNED_OUT.message);
    // Re-read: no row was left behind.
    expect(await sessionRow(sid)).toBeNull();
    // A session signed after the revocation is recorded live.
    const fresh = newSessionId();
    await recordSession(
      app.strapi,
      { sid: fresh, memberId: ivy.id, issuedAt: Date.now() + 5, expiresAt: null },
      { device: 'Windows', browser: 'Chrome' },
    );
    expect((await sessionRow(fresh))?.revoked_at).toBeNull();
  });

  it('one other device signed out meanwhile is no revocation of everything: a log-in signed before it is recorded live', async () => {
    const kit = await member();
    const other = await signIn(kit.email, kit.password, CHROME_WINDOWS);
    const issuedAt = Date.now() - 1000;
    // The member signs out that other device between this log-in's signing and its row.
    expect((await call('DELETE', `/api/sessions/${sidOf(other)}`, { token: kit.jwt })).status).toBe(200);
    const sid = newSessionId();
    await recordSession(app.strapi, { sid, memberId: kit.id, issuedAt, expiresAt: null }, { device: 'Windows', browser: 'Chrome' });
    // Re-read: the new session is live, the signed-out one stays signed out, and the first one works on.
    expect((await sessionRow(sid))?.revoked_at).toBeNull();
    expect(await works(other)).toBe(401);
    expect(await works(kit.jwt)).toBe(200);
  });

  it('a session won with a password replaced before its row is written is refused, and leaves no row', async () => {
    const jan = await member();
    // What the log-in read before checking the password; then the password changes (and everything is revoked).
    const stamp = await currentCredentialStamp(app.strapi, jan.id);
    const changed = await call('POST', '/api/auth/change-password', {
      token: jan.jwt,
      body: { currentPassword: jan.password, password: 'Jan-New-Pass-2', passwordConfirmation: 'Jan-New-Pass-2' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    // Signed after that revocation (so no time check can tell), recorded with the old stamp.
    const session = (sid: string, credentials: string | null) =>
      recordSession(app.strapi, { sid, memberId: jan.id, issuedAt: Date.now() + 5, expiresAt: null, credentials }, CHROME);
    const stale = newSessionId();
    await expect(session(stale, stamp)).rejects.toMatchObject({ why: 'credentials-changed' });
    expect(await sessionRow(stale)).toBeNull();
    // With the stamp of the new password, the session is recorded live.
    const fresh = newSessionId();
    await session(fresh, await currentCredentialStamp(app.strapi, jan.id));
    expect((await sessionRow(fresh))?.revoked_at).toBeNull();
  });

  it('a token issued outside a request has its session before the caller gets it', async () => {
    const hal = await member();
    const token = await issueSession(app.strapi, hal.id);
    expect(await sessionRow(sidOf(token))).toMatchObject({ member_id: hal.id, device: 'Unknown device', browser: 'Unknown browser' });
    expect(await works(token)).toBe(200);
  });

  it('account deletion removes the member’s sessions', async () => {
    const ivy = await member();
    expect((await call('DELETE', '/api/users-permissions/users/delete-account', { token: ivy.jwt })).status).toBe(200);
    expect(await app.strapi.db.query(SESSIONS).count({ where: { member_id: ivy.id } })).toBe(0);
  });
});

describe('sign-in alerts', () => {
  it('none for the first session after registration; one for a new device; none for a device seen before', async () => {
    const jo = await member(CHROME_WINDOWS);
    expect(await alertsTo(jo.email)).toHaveLength(0);

    await signIn(jo.username, jo.password, FIREFOX_IPHONE);
    const alerts = await alertsTo(jo.email);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].text).toContain('Firefox on iPhone');
    expect(alerts[0].text).toContain(`${PUBLIC_URL}/profile?tab=security`);
    expect(alerts[0].html).toContain(`href="${PUBLIC_URL}/profile?tab=security"`);

    await signIn(jo.username, jo.password, FIREFOX_IPHONE);
    await signIn(jo.email, jo.password, CHROME_WINDOWS);
    expect(await alertsTo(jo.email)).toHaveLength(0);
  });

  it('a device last seen more than 90 days ago is new again', async () => {
    const kim = await member(CHROME_WINDOWS);
    await app.strapi.db
      .query(SESSIONS)
      .updateMany({ where: { member_id: kim.id }, data: { issued_at: new Date(Date.now() - 91 * 86_400_000) } });
    await signIn(kim.email, kim.password, CHROME_WINDOWS);
    expect(await alertsTo(kim.email)).toHaveLength(1);
  });

  it('a stored address the mail rule now refuses (from before it) does not stop a log-in from a new device', async () => {
    const max = await member(CHROME_WINDOWS);
    // Written straight into the row, as an older release let it in: the queue refuses to send to it.
    const legacy = `legacy${counter}..old@example.com`;
    await app.strapi.db.query('plugin::users-permissions.user').update({ where: { id: max.id }, data: { email: legacy } });

    const res = await call('POST', '/api/auth/local', { body: { identifier: max.username, password: max.password }, agent: SAFARI_MAC });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = await sessionRow(sidOf(res.body.jwt!));
    expect(row).toMatchObject({ member_id: max.id, revoked_at: null });
    expect(await works(res.body.jwt!)).toBe(200);
    // The alert could not be queued (logged): nothing to the address, and the row stays.
    expect(await app.strapi.db.query('api::email-message.email-message').count({ where: { to: legacy } })).toBe(0);
    expect(await sessionRow(sidOf(res.body.jwt!))).not.toBeNull();
  });

  it('a refused sign-in records no session and sends nothing', async () => {
    const lee = await member(CHROME_WINDOWS);
    const res = await call('POST', '/api/auth/local', { body: { identifier: lee.email, password: 'wrong-Pass-1' }, agent: SAFARI_MAC });
    expect(res.status).toBe(400);
    expect(await app.strapi.db.query(SESSIONS).count({ where: { member_id: lee.id } })).toBe(1);
    expect(await alertsTo(lee.email)).toHaveLength(0);
  });
});
