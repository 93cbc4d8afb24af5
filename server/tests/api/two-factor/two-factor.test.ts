import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { TOTP } from 'otpauth';
import { missingServices, startCluster, type Cluster, type Instance } from '../../helpers/instances';
import { RESET_SUBJECT, createOutboxReader, resetCodeOf } from '../../helpers/outbox';
import { twoFactorMessages } from '../../../src/contract/twoFactor';

/**
 * Two-factor authentication attacked on two server processes (one PostgreSQL schema, one Redis):
 * brute-forced codes, replayed codes and tickets, reused recovery codes, another member's ticket,
 * turning it off without the password or a code, and a password reset. Every refusal is checked
 * against the victim's rows in the database, not only the status code. Locks are short (LOGIN_LOCK_SEC).
 */

const missing = await missingServices();
if (missing) console.warn(`[two-factor.test] skipped: ${missing}`);

const LOCK_SEC = 6;
const PASSWORD = 'Two-Factor-Passw0rd';
let cluster: Cluster;
let a: Instance;
let b: Instance;
let outbox: ReturnType<typeof createOutboxReader>;

type Body = Record<string, unknown> & {
  jwt?: string;
  ticket?: string;
  twoFactorRequired?: boolean;
  user?: { id: number };
  error?: { message: string };
  recoveryCodes?: string[];
  secret?: string;
  uri?: string;
  qrCode?: string;
};
const call = (instance: Instance, method: string, urlPath: string, options: { body?: unknown; token?: string } = {}) =>
  cluster.call<Body>(instance, method, urlPath, options);

/** A code of the secret `steps` periods from now. */
const codeAt = (secret: string, steps = 0) => TOTP.generate({ secret: TOTP_SECRET(secret), timestamp: Date.now() + steps * 30_000 });
const TOTP_SECRET = (base32: string) => new TOTP({ secret: base32 }).secret;

/** Waits out the end of a 30-second step, so a code computed now is still "now" on the server. */
async function awayFromStepEdge() {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 4_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

interface Member {
  id: number;
  email: string;
  jwt: string;
  secret: string;
  recoveryCodes: string[];
}

let memberCount = 0;
const register = () => {
  memberCount += 1;
  return cluster.register(a, `tf${memberCount}x${Date.now() % 100000}`, {
    email: `tf${memberCount}.${Date.now()}@carnivo.example`,
    password: PASSWORD,
  });
};

/** A member with two-factor on (set up on one instance, confirmed on the other) with the step "now" spent. */
async function enrolled(): Promise<Member> {
  const member = await register();
  const setup = await call(a, 'POST', '/api/two-factor/setup', { token: member.jwt });
  expect(setup.status, JSON.stringify(setup.body)).toBe(200);
  await awayFromStepEdge();
  const enabled = await call(b, 'POST', '/api/two-factor/enable', { token: member.jwt, body: { code: codeAt(setup.body.secret!) } });
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
  return { ...member, secret: setup.body.secret!, recoveryCodes: enabled.body.recoveryCodes! };
}

const logIn = (instance: Instance, email: string, password = PASSWORD) =>
  call(instance, 'POST', '/api/auth/local', { body: { identifier: email, password } });
const secondStep = (instance: Instance, ticket: string | undefined, code: string) =>
  call(instance, 'POST', '/api/auth/two-factor', { body: { ticket, code } });
async function ticketOf(member: { email: string }, instance = a): Promise<string> {
  const res = await logIn(instance, member.email);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.twoFactorRequired).toBe(true);
  expect(res.body.jwt).toBeUndefined();
  expect(res.body.user).toBeUndefined();
  return res.body.ticket!;
}

const rows = <T>(sql: string, values: unknown[]) => cluster.sql<T>(sql, values);
const enrolmentRow = async (userId: number) =>
  (
    await rows<{ secret: string | null; pending_secret: string | null; enabled_at: string | null; last_step: string | null }>(
      'SELECT secret, pending_secret, enabled_at, last_step FROM two_factors WHERE user_id = $1',
      [userId],
    )
  )[0];
const unusedRecoveryCodes = async (userId: number) =>
  Number(
    (await rows<{ n: string }>('SELECT count(*) AS n FROM two_factor_recovery_codes WHERE user_id = $1 AND used_at IS NULL', [userId]))[0]
      .n,
  );

describe.skipIf(missing !== null)('two-factor authentication on two instances', () => {
  beforeAll(async () => {
    cluster = await startCluster(2, { LOGIN_LOCK_SEC: String(LOCK_SEC), LOGIN_MAX_LOCK_SEC: String(LOCK_SEC) });
    [a, b] = cluster.instances;
    outbox = createOutboxReader(cluster.outboxDir);
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  it('enrols with a QR code rendered by the server; the secret is stored encrypted, the recovery codes hashed', async () => {
    const member = await register();
    expect((await call(a, 'POST', '/api/two-factor/setup')).status).toBe(401);
    const setup = await call(a, 'POST', '/api/two-factor/setup', { token: member.jwt });
    expect(setup.status).toBe(200);
    expect(setup.headers['cache-control']).toBe('no-store');
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.uri).toContain(`secret=${setup.body.secret}`);
    expect(setup.body.uri).toMatch(/^otpauth:\/\/totp\/Carnivo:/);
    expect(Buffer.from(setup.body.qrCode!.replace('data:image/svg+xml;base64,', ''), 'base64').toString()).toContain('<svg');

    // Not on until confirmed: the password alone still signs in.
    expect((await logIn(b, member.email)).body.jwt).toEqual(expect.any(String));
    const wrong = await call(b, 'POST', '/api/two-factor/enable', {
      token: member.jwt,
      body: { code: '000000' === codeAt(setup.body.secret!) ? '111111' : '000000' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error?.message).toBe(twoFactorMessages.wrongCode);
    expect((await enrolmentRow(member.id)).enabled_at).toBeNull();

    await awayFromStepEdge();
    const enabled = await call(b, 'POST', '/api/two-factor/enable', { token: member.jwt, body: { code: codeAt(setup.body.secret!) } });
    expect(enabled.status).toBe(200);
    const codes = enabled.body.recoveryCodes!;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    const row = await enrolmentRow(member.id);
    expect(row.enabled_at).not.toBeNull();
    expect(row.pending_secret).toBeNull();
    expect(row.secret).toMatch(/^v1\./);
    expect(row.secret).not.toContain(setup.body.secret);
    const hashes = await rows<{ code_hash: string }>('SELECT code_hash FROM two_factor_recovery_codes WHERE user_id = $1', [member.id]);
    expect(hashes).toHaveLength(10);
    for (const { code_hash } of hashes) for (const code of codes) expect(code_hash).not.toContain(code.replace('-', ''));

    const status = await call(a, 'GET', '/api/two-factor', { token: member.jwt });
    expect(status.body).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    expect((await call(a, 'POST', '/api/two-factor/setup', { token: member.jwt })).body.error?.message).toBe(
      twoFactorMessages.alreadyEnabled,
    );
  });

  it('a password log-in gives no session, only a ticket; the ticket and a code give one, once; the code is not good twice', async () => {
    const member = await enrolled();
    const sessionRows = async () =>
      (await rows<{ count: string }>('SELECT count(*) AS count FROM member_sessions WHERE member_id = $1', [member.id]))[0].count;
    const rowsBefore = await sessionRows();
    const ticket = await ticketOf(member, a);
    // The password alone signed nobody in: no session row (no signed-in device, no sign-in alert).
    expect(await sessionRows()).toBe(rowsBefore);
    const code = codeAt(member.secret, 1);
    const signedIn = await secondStep(b, ticket, code);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user?.id).toBe(member.id);
    const me = await call(a, 'GET', '/api/users/me', { token: signedIn.body.jwt });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(member.id);

    // The ticket again (the same code or not): void.
    const replayedTicket = await secondStep(a, ticket, code);
    expect(replayedTicket.status).toBe(401);
    expect(replayedTicket.body.error?.message).toBe(twoFactorMessages.ticketExpired);
    expect(replayedTicket.body.jwt).toBeUndefined();
    // The code again on a fresh ticket, on the other instance: spent.
    const replayedCode = await secondStep(a, await ticketOf(member, b), code);
    expect(replayedCode.status).toBe(400);
    expect(replayedCode.body.error?.message).toBe(twoFactorMessages.wrongCode);
    expect(replayedCode.body.jwt).toBeUndefined();
    // An earlier code of the window is no good after a later one.
    expect((await secondStep(b, await ticketOf(member), codeAt(member.secret, 0))).status).toBe(400);

    // A made-up ticket.
    expect((await secondStep(a, 'x'.repeat(43), codeAt(member.secret, 1))).status).toBe(401);
    expect((await secondStep(a, undefined, codeAt(member.secret, 1))).status).toBe(401);
  });

  it('a recovery code works once, on whichever instance; regenerating voids the old ones', async () => {
    const member = await enrolled();
    const [first, second, third] = member.recoveryCodes;
    const used = await secondStep(a, await ticketOf(member), first.toUpperCase());
    expect(used.status, JSON.stringify(used.body)).toBe(200);
    expect(used.body.jwt).toEqual(expect.any(String));
    expect(await unusedRecoveryCodes(member.id)).toBe(9);

    const reused = await secondStep(b, await ticketOf(member, b), first);
    expect(reused.status).toBe(400);
    expect(reused.body.error?.message).toBe(twoFactorMessages.wrongCode);
    expect(reused.body.jwt).toBeUndefined();
    expect(await unusedRecoveryCodes(member.id)).toBe(9);

    const regenerated = await call(b, 'POST', '/api/two-factor/recovery-codes', { token: used.body.jwt, body: { code: second } });
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.recoveryCodes).toHaveLength(10);
    expect(await unusedRecoveryCodes(member.id)).toBe(10);
    expect((await secondStep(a, await ticketOf(member), third)).status).toBe(400);
    expect((await secondStep(a, await ticketOf(member), regenerated.body.recoveryCodes![0])).status).toBe(200);
  });

  it("another member's ticket with one's own code gives nothing", async () => {
    const victim = await enrolled();
    const attacker = await enrolled();
    const before = await enrolmentRow(victim.id);
    const victimTicket = await ticketOf(victim);
    const res = await secondStep(b, victimTicket, codeAt(attacker.secret, 1));
    expect(res.status).toBe(400);
    expect(res.body.jwt).toBeUndefined();
    const own = await secondStep(a, victimTicket, attacker.recoveryCodes[0]);
    expect(own.status).toBe(400);
    expect(own.body.jwt).toBeUndefined();
    // The victim's state is untouched, the attacker's recovery code unspent.
    expect(await enrolmentRow(victim.id)).toEqual(before);
    expect(await unusedRecoveryCodes(victim.id)).toBe(10);
    expect(await unusedRecoveryCodes(attacker.id)).toBe(10);
    // The victim's own code still works on that ticket.
    expect((await secondStep(a, victimTicket, codeAt(victim.secret, 1))).body.user?.id).toBe(victim.id);
  });

  it('brute-forced codes lock the account on both instances, the right code included, until the lock passes', async () => {
    const member = await enrolled();
    const wrongCode = (i: number) => String((Number(codeAt(member.secret, 1)) + 1 + i) % 1_000_000).padStart(6, '0');
    // One ticket takes five wrong codes, then is void whatever comes.
    const ticket = await ticketOf(member);
    for (let i = 0; i < 5; i += 1) expect((await secondStep(i % 2 ? b : a, ticket, wrongCode(i))).status).toBe(400);
    const burnt = await secondStep(a, ticket, codeAt(member.secret, 1));
    expect(burnt.status).toBe(401);
    expect(burnt.body.error?.message).toBe('Too many wrong codes. Please log in again.');
    expect(burnt.body.jwt).toBeUndefined();
    // Five more on a new ticket: ten wrong codes for the account lock it on both instances.
    const second = await ticketOf(member, b);
    for (let i = 5; i < 10; i += 1) expect((await secondStep(i % 2 ? b : a, second, wrongCode(i))).status).toBe(400);
    let retryAfter = 0;
    for (const instance of [a, b]) {
      const res = await secondStep(instance, await ticketOf(member, instance), codeAt(member.secret, 1));
      expect(res.status).toBe(429);
      expect(res.body.jwt).toBeUndefined();
      expect(res.body.error?.message).toMatch(/^Too many wrong codes\. Try again in 1 minute\.$/);
      retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(LOCK_SEC);
    }
    // Locked for signed-in code checks too, and no recovery code was spent meanwhile.
    expect(
      (await call(b, 'POST', '/api/two-factor/recovery-codes', { token: member.jwt, body: { code: member.recoveryCodes[0] } })).status,
    ).toBe(429);
    expect(await unusedRecoveryCodes(member.id)).toBe(10);

    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 500));
    const back = await secondStep(b, await ticketOf(member), codeAt(member.secret, 1));
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.user?.id).toBe(member.id);
  }, 60_000);

  it('turning it off needs the password and a code; a refusal changes nothing', async () => {
    const member = await enrolled();
    const before = await enrolmentRow(member.id);
    const code = codeAt(member.secret, 1);
    const attempts = [
      { code },
      { password: PASSWORD },
      { password: 'Not-The-Passw0rd', code },
      { password: PASSWORD, code: '12345' },
      { password: PASSWORD, code: member.recoveryCodes[0].replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')) },
    ];
    for (const body of attempts) {
      const res = await call(a, 'POST', '/api/two-factor/disable', { token: member.jwt, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await enrolmentRow(member.id)).toEqual(before);
      expect(await unusedRecoveryCodes(member.id)).toBe(10);
    }
    expect((await call(a, 'POST', '/api/two-factor/disable', { body: { password: PASSWORD, code } })).status).toBe(401);
    expect((await logIn(b, member.email)).body.twoFactorRequired).toBe(true);

    const off = await call(b, 'POST', '/api/two-factor/disable', { token: member.jwt, body: { password: PASSWORD, code } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(await enrolmentRow(member.id)).toBeUndefined();
    expect(await unusedRecoveryCodes(member.id)).toBe(0);
    expect((await logIn(a, member.email)).body.jwt).toEqual(expect.any(String));
  });

  it('a ticket that outlived a revocation (written just after the revocation deleted the tickets) gives no session', async () => {
    const member = await enrolled();
    const ticket = await ticketOf(member, a);
    // The interleaving of a password change on the other instance: its ticket deletion ran before this
    // ticket was written, its revocation of the session rows after.
    await rows('UPDATE member_sessions SET revoked_at = $2, revoked_everywhere = true WHERE member_id = $1 AND revoked_at IS NULL', [
      member.id,
      new Date(),
    ]);
    const live = async () =>
      Number(
        (await rows<{ n: string }>('SELECT count(*) AS n FROM member_sessions WHERE member_id = $1 AND revoked_at IS NULL', [member.id]))[0]
          .n,
      );
    expect(await live()).toBe(0);
    const refused = await secondStep(b, ticket, codeAt(member.secret, 1));
    expect(refused.status).toBe(401);
    expect(refused.body.error?.message).toBe(twoFactorMessages.ticketExpired);
    expect(refused.body.jwt).toBeUndefined();
    // Nothing was signed in: still no live session row.
    expect(await live()).toBe(0);
    // A ticket issued after the revocation works.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await secondStep(a, await ticketOf(member, b), codeAt(member.secret, 1))).body.user?.id).toBe(member.id);
  });

  it('a ticket whose password was replaced after it was written gives no session and spends no code', async () => {
    const member = await enrolled();
    const ticket = await ticketOf(member, a);
    // The interleaving of a change that deleted the tickets just before this one was written, and whose
    // revocation found no session to end: only the password hash tells. Another member's hash stands in.
    const [{ password: oldHash }] = await rows<{ password: string }>('SELECT password FROM up_users WHERE id = $1', [member.id]);
    const other = await register();
    await rows('UPDATE up_users SET password = (SELECT password FROM up_users WHERE id = $2) WHERE id = $1', [member.id, other.id]);
    const codesBefore = await unusedRecoveryCodes(member.id);
    const stale = await secondStep(b, ticket, member.recoveryCodes[0]);
    expect(stale.status).toBe(401);
    expect(stale.body.error?.message).toBe(twoFactorMessages.ticketExpired);
    expect(stale.body.jwt).toBeUndefined();
    // Re-read: the recovery code is not spent, and no session was written.
    expect(await unusedRecoveryCodes(member.id)).toBe(codesBefore);
    const sessions = await rows<{ n: string }>('SELECT count(*) AS n FROM member_sessions WHERE member_id = $1 AND revoked_at IS NULL', [
      member.id,
    ]);
    expect(Number(sessions[0].n)).toBe(1);
    // The member's own password again: a new ticket and the same recovery code sign in.
    await rows('UPDATE up_users SET password = $2 WHERE id = $1', [member.id, oldHash]);
    expect((await secondStep(a, await ticketOf(member, b), member.recoveryCodes[0])).body.user?.id).toBe(member.id);
  });

  it('a password reset by e-mail does not bypass two-factor, and voids the tickets issued before it', async () => {
    const member = await enrolled();
    const earlier = await ticketOf(member);
    expect((await call(a, 'POST', '/api/auth/forgot-password', { body: { email: member.email } })).status).toBe(200);
    const resetCode = resetCodeOf(await outbox.next(member.email, undefined, RESET_SUBJECT));
    const newPassword = 'Reset-Passw0rd-2';
    const reset = await call(b, 'POST', '/api/auth/reset-password', {
      body: { code: resetCode, password: newPassword, passwordConfirmation: newPassword },
    });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(reset.body).toEqual({ ok: true });

    const afterReset = await logIn(a, member.email, newPassword);
    expect(afterReset.body.jwt).toBeUndefined();
    expect(afterReset.body.twoFactorRequired).toBe(true);
    // The ticket from before the reset is void, even with the right code.
    const stale = await secondStep(b, earlier, codeAt(member.secret, 1));
    expect(stale.status).toBe(401);
    expect(stale.body.jwt).toBeUndefined();
    expect((await secondStep(b, afterReset.body.ticket, codeAt(member.secret, 1))).body.user?.id).toBe(member.id);
    expect((await enrolmentRow(member.id)).enabled_at).not.toBeNull();
  });
});
