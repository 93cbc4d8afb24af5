import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { missingServices, startCluster, withPostgres, type Cluster, type Instance } from '../helpers/instances';
import type { ApiError, AuthResponse } from '../helpers/types';
import { SIGNED_OUT_REASON, sessionMessages, type SessionsResponse } from '../../src/contract/sessions';
import { SESSION_ROWS_LOCK } from '../../src/security/sessions/row-lock';
import { TOTP } from 'otpauth';

/**
 * Signing out one session on one instance refuses its token on the other at once (the check reads
 * PostgreSQL, nothing is cached per process), and another member's session id is refused on both.
 */

const missing = await missingServices();
if (missing) console.warn(`[member-sessions-cluster.test] skipped: ${missing}`);

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

let cluster: Cluster;
let a: Instance;
let b: Instance;
type Answer = Partial<AuthResponse> & Partial<ApiError> & Partial<SessionsResponse>;
const call = (instance: Instance, method: string, path: string, options: { body?: unknown; token?: string; agent?: string } = {}) =>
  cluster.call<Answer>(instance, method, path, { ...options, headers: { 'User-Agent': options.agent ?? FIREFOX_LINUX } });
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as { sid: string; id: number; iat_ms: number };
const sidOf = (token: string) => claimsOf(token).sid;
const works = async (instance: Instance, token: string) => (await call(instance, 'GET', '/api/users/me', { token })).status;

const register = (instance: Instance, username: string, password?: string) =>
  cluster.register(instance, username, { password, headers: { 'User-Agent': FIREFOX_LINUX } });

describe.skipIf(missing !== null)('signed-in devices on two instances (PostgreSQL)', () => {
  beforeAll(async () => {
    cluster = await startCluster(2);
    [a, b] = cluster.instances;
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  it('a session signed out on one instance is refused on the other at once', async () => {
    const member = await register(a, 'clusterdev1');
    const signIn = await call(b, 'POST', '/api/auth/local', {
      body: { identifier: member.email, password: member.password },
      agent: CHROME_ANDROID,
    });
    expect(signIn.status).toBe(200);
    const phone = signIn.body.jwt!;
    // Both instances see both sessions.
    for (const instance of [a, b]) {
      const list = await call(instance, 'GET', '/api/sessions', { token: member.jwt });
      expect(list.body.sessions!.map((session) => [session.device, session.browser]).sort()).toEqual([
        ['Android phone', 'Chrome'],
        ['Linux computer', 'Firefox'],
      ]);
    }
    expect(await works(b, phone)).toBe(200);
    const started = Date.now();
    expect((await call(a, 'DELETE', `/api/sessions/${sidOf(phone)}`, { token: member.jwt })).status).toBe(200);
    expect(await works(b, phone)).toBe(401);
    expect(await works(a, phone)).toBe(401);
    // Told why on either instance (PostgreSQL's revoked_at is read the same way): signed out, not expired.
    for (const instance of [a, b]) {
      const refused = await call(instance, 'GET', '/api/users/me', { token: phone });
      expect(refused.body.error?.message).toBe(sessionMessages.signedOutElsewhere);
      expect(refused.body.error?.details).toEqual({ reason: SIGNED_OUT_REASON });
    }
    console.log(`[member-sessions-cluster] revoked on A, refused on B after ${Date.now() - started} ms`);
    expect(await works(b, member.jwt)).toBe(200);
  });

  it('another member’s session id is not found on either instance; the victim’s session lives on', async () => {
    const victim = await register(a, 'clusterdev2');
    const attacker = await register(b, 'clusterdev3');
    for (const instance of [a, b]) {
      expect((await call(instance, 'DELETE', `/api/sessions/${sidOf(victim.jwt)}`, { token: attacker.jwt })).status).toBe(404);
    }
    expect(await cluster.sql('SELECT revoked_at FROM member_sessions WHERE sid = $1', [sidOf(victim.jwt)])).toEqual([{ revoked_at: null }]);
    expect(await works(a, victim.jwt)).toBe(200);
    expect(await works(b, victim.jwt)).toBe(200);
  });
  it('a log-in whose row is written while "Log out of all devices" is still in flight waits for it, and is refused', async () => {
    const member = await register(a, 'clusterdev4');
    const memberId = claimsOf(member.jwt).id;
    const live = async () =>
      Number(
        (
          await cluster.sql<{ n: string }>('SELECT count(*) AS n FROM member_sessions WHERE member_id = $1 AND revoked_at IS NULL', [
            memberId,
          ])
        )[0].n,
      );
    // A revocation as the server runs one (security/sessions/row-lock.ts), held open: the log-in's password is
    // checked and its token signed, then its row waits for the lock; the revocation's UPDATE runs after the
    // signing and before that row exists, so it cannot revoke it, and it commits only then.
    const logIn = await withPostgres(async (pg) => {
      await pg.query('BEGIN');
      await pg.query('SELECT pg_advisory_xact_lock($1, $2)', [SESSION_ROWS_LOCK, memberId]);
      const pending = call(b, 'POST', '/api/auth/local', { body: { identifier: member.email, password: member.password } });
      let answered = false;
      void pending.then(() => (answered = true));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      // Without the lock the log-in would have answered by now, with a session the revocation never saw.
      expect(answered).toBe(false);
      await pg.query(
        `UPDATE "${cluster.schema}".member_sessions SET revoked_at = clock_timestamp(), revoked_everywhere = true
           WHERE member_id = $1 AND revoked_at IS NULL`,
        [memberId],
      );
      await pg.query('COMMIT');
      return pending;
    });
    // Refused, with no token, in words the member can act on (never Strapi's bare "Unauthorized").
    expect(logIn.status).toBe(401);
    expect(logIn.body.jwt).toBeUndefined();
    expect(logIn.body.error?.message).toBe(sessionMessages.signedOutElsewhere);
    // Re-read: no session of the member is live, and the one signed before the revocation is refused.
    expect(await live()).toBe(0);
    expect(await works(a, member.jwt)).toBe(401);
  });

  it('40 log-ins over both instances, eight at a time around "Log out of all devices": no token signed before it works after it', async () => {
    // Eight at once: the account's guess budget (10) counts log-ins in flight before checking them.
    const member = await register(a, 'clusterdev5');
    const outcomes: { issued: number; status: number; sent: number; answered: number }[] = [];
    let handedOut = 0;
    for (const delayMs of [0, 5, 15, 30, 60]) {
      const holder = await call(a, 'POST', '/api/auth/local', { body: { identifier: member.email, password: member.password } });
      expect(holder.status).toBe(200);
      const logIns = Array.from({ length: 8 }, (_, i) =>
        call(i % 2 ? b : a, 'POST', '/api/auth/local', { body: { identifier: member.email, password: member.password } }),
      );
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      const sent = Date.now();
      const loggedOut = await call(b, 'POST', '/api/auth/logout-all', { token: holder.body.jwt });
      const answered = Date.now();
      expect(loggedOut.status).toBe(200);
      const answers = await Promise.all(logIns);
      // Every answer is a session, or the refusal (no token) of one the revocation ended.
      for (const res of answers.filter((answer) => answer.status !== 200)) {
        expect(res.status, JSON.stringify(res.body)).toBe(401);
        expect(res.body.jwt).toBeUndefined();
      }
      const tokens = answers.flatMap((res) => (res.status === 200 && res.body.jwt ? [res.body.jwt] : []));
      handedOut += tokens.length;
      for (const token of tokens) outcomes.push({ issued: claimsOf(token).iat_ms, status: await works(b, token), sent, answered });
      expect(await works(a, holder.body.jwt!)).toBe(401);
    }
    console.log(
      `[member-sessions-cluster] 40 log-ins around log-out-all: ${handedOut} tokens handed out, ${outcomes.filter((o) => o.status === 200).length} working after it`,
    );
    for (const { issued, status, sent, answered } of outcomes) {
      if (issued < sent) expect(status).toBe(401);
      if (issued > answered) expect(status).toBe(200);
    }
  });
  /**
   * Log-ins with the old password in flight while the password changes: each read the old hash and spent
   * its bcrypt time (about 70 ms) while the change committed and revoked every session, so its token is
   * signed after that revocation. Every one must be refused or ended: a session won with a password the
   * member has just replaced must not outlive the change (re-read: no live row but change-password's own).
   */
  async function oldPasswordRace(prefix: string, twoFactor: boolean) {
    const survivors: string[] = [];
    let won = 0;
    let refused = 0;
    for (const [round, startMs] of [0, 60, 120, 180, 240, 300].entries()) {
      const password = `${prefix}-Old-Pass-1`;
      const member = await register(a, `${prefix}${round}`, password);
      const memberId = claimsOf(member.jwt).id;
      let recoveryCodes: string[] = [];
      if (twoFactor) {
        const setup = await call(a, 'POST', '/api/two-factor/setup', { token: member.jwt });
        const secret = (setup.body as { secret: string }).secret;
        const code = TOTP.generate({ secret: new TOTP({ secret }).secret });
        const enabled = await call(b, 'POST', '/api/two-factor/enable', { token: member.jwt, body: { code } });
        expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
        recoveryCodes = (enabled.body as { recoveryCodes: string[] }).recoveryCodes;
      }
      // The change first (its own two bcrypt rounds take a while), then a log-in every 25 ms from `startMs` on:
      // some are answered before it commits, some after, and some check the old hash while it commits.
      const change = call(a, 'POST', '/api/auth/change-password', {
        token: member.jwt,
        body: { currentPassword: password, password: `${prefix}-New-Pass-2`, passwordConfirmation: `${prefix}-New-Pass-2` },
      });
      const logIns = Array.from({ length: 8 }, async (_, i) => {
        await new Promise((resolve) => setTimeout(resolve, startMs + i * 25));
        return call(i % 2 ? b : a, 'POST', '/api/auth/local', { body: { identifier: member.email, password } });
      });
      const changed = await change;
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      const answers = await Promise.all(logIns);
      for (const res of answers.filter((answer) => answer.status !== 200)) {
        refused += 1;
        // Too late for the old password, or refused at its session's row: the log-in's own words, never a bare 401.
        expect([400, 401], JSON.stringify(res.body)).toContain(res.status);
        expect(res.body.error?.message).not.toBe('Unauthorized');
      }
      // With two-factor on, a log-in answered a ticket: its second step, with a good recovery code, comes now.
      const tokens: string[] = [];
      for (const res of answers.filter((answer) => answer.status === 200)) {
        won += 1;
        const ticket = (res.body as { ticket?: string }).ticket;
        if (!ticket) {
          tokens.push(res.body.jwt!);
          continue;
        }
        const second = await call(b, 'POST', '/api/auth/two-factor', { body: { ticket, code: recoveryCodes.pop() } });
        if (second.status === 200) tokens.push(second.body.jwt!);
        else expect(second.status, JSON.stringify(second.body)).toBe(401);
      }
      for (const token of tokens) if ((await works(b, token)) === 200) survivors.push(`round ${round}: ${sidOf(token)}`);
      // Re-read the rows: the only live session is the one change-password answered.
      const live = await cluster.sql<{ sid: string }>('SELECT sid FROM member_sessions WHERE member_id = $1 AND revoked_at IS NULL', [
        memberId,
      ]);
      expect(live.map((row) => row.sid)).toEqual([sidOf(changed.body.jwt!)]);
    }
    console.log(
      `[member-sessions-cluster] ${prefix}: ${won} log-ins with the old password answered 200, ${refused} refused, ${survivors.length} outlived the change`,
    );
    expect(survivors).toEqual([]);
  }

  it('log-ins with the old password racing a password change: none of their sessions outlives it', async () => {
    await oldPasswordRace('oldpass', false);
  }, 120_000);

  it('two-factor log-ins with the old password racing a password change: no ticket of theirs completes', async () => {
    await oldPasswordRace('oldpass2fa', true);
  }, 120_000);
});
