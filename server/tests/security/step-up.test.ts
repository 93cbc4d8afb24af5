import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { boot, type TestApp } from '../helpers/app';
import { request } from '../helpers/strapi';
import type { SoftwarePasskey } from '../helpers/software-authenticator';
import {
  ORIGIN,
  accountActions,
  addPasskey as addPasskeyOn,
  changePassword,
  awayFromStepEdge,
  codeOf,
  expectStepUpAsked,
  passkeyOnTwoFactorMember,
  register as registerOn,
  removePasskey,
  turnOnTwoFactor as turnOnTwoFactorOn,
  twoFactorWithAttackersAuthenticator,
  type Body,
  type Member,
  type StepUpSurface,
} from '../helpers/step-up-attacks';
import { stepUpMessages } from '../../src/contract/stepUp';
import { RECENT_PASSKEY_MINUTES, STEP_UP_WINDOW_SEC } from '../../src/security/step-up';

/**
 * Issue 28, "A stolen session must not become a permanent foothold": step-up before changing how the
 * account signs in, deleting it or downloading its data. Each attack is made with a stolen session
 * token whose proof of presence is older than the window (its session row's reauthenticated_at moved
 * back), and the victim's rows are re-read to prove nothing changed; then a fresh step-up on that
 * session lets the owner do it. A proof on one session never serves another. The attacks shared with
 * step-up-cluster.test.ts are in helpers/step-up-attacks.ts (here owner and thief reach one server).
 */

const SESSIONS = 'api::member-session.member-session';

let app: TestApp;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', route: string, options: { token?: string; body?: unknown } = {}) =>
  request<Body>(app.baseUrl, method, route, options);

const sidOf = (jwt: string): string => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')).sid as string;

/** The session's proof of presence moved back past the window: what a stolen, older token holds. */
async function ageProof(jwt: string, seconds = STEP_UP_WINDOW_SEC + 60): Promise<void> {
  const { count } = await app.strapi.db
    .query(SESSIONS)
    .updateMany({ where: { sid: sidOf(jwt) }, data: { reauthenticated_at: new Date(Date.now() - seconds * 1000) } });
  expect(count).toBe(1);
}

const stepUp = (jwt: string, body: unknown) => call('POST', '/api/auth/step-up', { token: jwt, body });

// Re-reads of the victim's rows.
const userRow = (id: number) =>
  app.strapi.db
    .query('plugin::users-permissions.user')
    .findOne({ where: { id }, select: ['id', 'email', 'password', 'pending_email'] }) as Promise<{
    email: string;
    password: string;
    pending_email: string | null;
  } | null>;
const passkeyRows = (memberId: number) =>
  app.strapi.db.query('api::passkey.passkey').findMany({ where: { user: { id: memberId } }, orderBy: { id: 'asc' } }) as Promise<
    { id: number; createdAt: string }[]
  >;
const twoFactorRow = (memberId: number) =>
  app.strapi.db.query('api::two-factor.two-factor').findOne({ where: { user_id: memberId } }) as Promise<{
    secret: string | null;
    pending_secret: string | null;
    enabled_at: unknown;
  } | null>;

const recoveryCodeRows = async (memberId: number) =>
  (
    (await app.strapi.db
      .query('api::two-factor.two-factor-recovery-code')
      .findMany({ where: { user_id: memberId }, select: ['code_hash', 'used_at'], orderBy: { code_hash: 'asc' } })) as {
      code_hash: string;
      used_at: unknown;
    }[]
  ).map((row) => `${row.code_hash}:${String(row.used_at)}`);

/** One server: the owner and the thief reach the same one. */
const surface: StepUpSurface = {
  register: (username) => app.register(username),
  call: (_side, method, route, options) => call(method, route, options),
  ageProof: (jwt) => ageProof(jwt),
  userRow: async (id) => {
    const row = await userRow(id);
    return row && { email: row.email, password: row.password, pending_email: row.pending_email };
  },
  passkeyIds: async (id) => (await passkeyRows(id)).map((row) => row.id),
  challenges: (id) => app.strapi.db.query('api::passkey.passkey-challenge').count({ where: { member_id: id } }),
  twoFactor: async (id) => {
    const row = await twoFactorRow(id);
    return {
      row: row && { secret: row.secret, pending_secret: row.pending_secret, enabled_at: row.enabled_at },
      codes: await app.strapi.db.query('api::two-factor.two-factor-recovery-code').count({ where: { user_id: id } }),
    };
  },
};

const register = (): Promise<Member> => registerOn(surface);
const turnOnTwoFactor = (member: Member) => turnOnTwoFactorOn(surface, member);
const addPasskey = (member: Member) => addPasskeyOn(surface, member);

async function passkeySignIn(passkey: SoftwarePasskey) {
  const options = await call('POST', '/api/auth/passkey/options');
  expect(options.status).toBe(200);
  return call('POST', '/api/auth/passkey', { body: { credential: passkey.authenticate(options.body as { challenge: string }) } });
}

async function passkeyProof(passkey: SoftwarePasskey) {
  const options = await call('POST', '/api/auth/passkey/options');
  return { credential: passkey.authenticate(options.body as { challenge: string }) };
}

beforeAll(async () => {
  app = await boot({ outbox: true, limits: 'off', env: { PUBLIC_URL: ORIGIN } });
});

afterAll(async () => {
  await app?.stop();
});

describe('step-up: a stolen session alone changes nothing', () => {
  it('cannot add a passkey to a member with two-factor on; after a code on this session it can', () => passkeyOnTwoFactorMember(surface));

  it("cannot turn two-factor on with the attacker's authenticator; after the password it can", () =>
    twoFactorWithAttackersAuthenticator(surface));

  // These two routes take the second factor (and off the password) in the request itself, so no step-up is
  // asked first: a step-up by code would spend the code's step and the resent request's code would be a replay.
  it('cannot get new recovery codes or turn two-factor off without a code; with one, an old session can', async () => {
    const victim = await register();
    const { secret, recoveryCodes } = await turnOnTwoFactor(victim);
    const before = await twoFactorRow(victim.id);
    const codesBefore = await recoveryCodeRows(victim.id);
    await ageProof(victim.jwt);

    // The stolen session alone: no code, or a wrong one, and nothing changes.
    for (const body of [{}, { code: '000000' }]) {
      const refused = await call('POST', '/api/two-factor/recovery-codes', { token: victim.jwt, body });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.recoveryCodes).toBeUndefined();
    }
    for (const body of [{ password: victim.password }, { password: victim.password, code: '000000' }, { code: recoveryCodes[1] }]) {
      expect((await call('POST', '/api/two-factor/disable', { token: victim.jwt, body })).status).toBe(400);
    }
    expect(await twoFactorRow(victim.id)).toEqual(before);
    expect(await recoveryCodeRows(victim.id)).toEqual(codesBefore);

    // The owner, on a session older than the window, with an app code (the next step's: enable spent this one).
    await awayFromStepEdge();
    const renewed = await call('POST', '/api/two-factor/recovery-codes', { token: victim.jwt, body: { code: codeOf(secret, 1) } });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect(renewed.body.recoveryCodes).toHaveLength(10);
    expect(await recoveryCodeRows(victim.id)).not.toEqual(codesBefore);
    // The code proved presence on this session: the next guarded action is not asked again.
    expect((await call('GET', '/api/account/export', { token: victim.jwt })).status).toBe(200);

    await ageProof(victim.jwt);
    // Off with the password and one of the new recovery codes (the app's next step is spent above).
    const off = await call('POST', '/api/two-factor/disable', {
      token: victim.jwt,
      body: { password: victim.password, code: (renewed.body.recoveryCodes as string[])[0] },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(await twoFactorRow(victim.id)).toBeNull();
    expect(await recoveryCodeRows(victim.id)).toEqual([]);
    expect((await call('GET', '/api/account/export', { token: victim.jwt })).status).toBe(200);
  });

  it('cannot delete the account, change the e-mail or the password, or download the data', () => accountActions(surface));

  it("cannot claim the member's money-back refund (it ends their plan for good); after the password it can", async () => {
    const victim = await register();
    const bought = await call('POST', '/api/subscriptions', { token: victim.jwt, body: { priceId: 'price_sandbox_monthly' } });
    expect(bought.status).toBe(200);
    const card = { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };
    const paid = await call('POST', '/api/payments/sandbox/confirm', {
      body: { clientSecret: (bought.body as { clientSecret: string }).clientSecret, ...card },
    });
    expect(paid.status).toBe(200);
    await ageProof(victim.jwt);
    const subscription = async () =>
      (await app.strapi.db.query('api::subscription.subscription').findMany({ where: { user: { id: victim.id } } })).map(
        (row: { status: string; refunded_at: unknown }) => [row.status, row.refunded_at],
      );

    expectStepUpAsked(await call('POST', '/api/subscriptions/refund', { token: victim.jwt }), ['password']);
    // Re-read: the plan still runs and nothing was refunded.
    expect(await subscription()).toEqual([['active', null]]);

    expect((await stepUp(victim.jwt, { password: victim.password })).status).toBe(200);
    expect((await call('POST', '/api/subscriptions/refund', { token: victim.jwt })).status).toBe(200);
    expect(await subscription()).toEqual([['canceled', expect.anything()]]);
  });

  it('changes the password only after a step-up', () => changePassword(surface));

  it('cannot remove a passkey; after a step-up it can', () => removePasskey(surface));

  it('the window is the constant', async () => {
    const victim = await register();
    const { id } = await addPasskey(victim);
    // Just inside the window: still good.
    await ageProof(victim.jwt, STEP_UP_WINDOW_SEC - 30);
    expect((await call('POST', '/api/passkeys/registration-options', { token: victim.jwt })).status).toBe(200);
    await ageProof(victim.jwt, STEP_UP_WINDOW_SEC + 1);
    expectStepUpAsked(await call('DELETE', `/api/passkeys/${id}`, { token: victim.jwt }), ['password', 'passkey']);
    expect((await passkeyRows(victim.id)).map((row) => row.id)).toEqual([id]);
  });
});

describe('step-up: the proof', () => {
  it('is bound to its session: a proof on one session never serves another of the same member', async () => {
    const member = await register();
    const other = await call('POST', '/api/auth/local', { body: { identifier: member.email, password: member.password } });
    expect(other.status).toBe(200);
    const stolen = other.body.jwt!;
    await ageProof(member.jwt);
    await ageProof(stolen);
    expect((await stepUp(member.jwt, { password: member.password })).status).toBe(200);
    expectStepUpAsked(await call('DELETE', '/api/users-permissions/users/delete-account', { token: stolen }), ['password']);
    expect(await userRow(member.id)).not.toBeNull();
    const rows = (await app.strapi.db.query(SESSIONS).findMany({ where: { member_id: member.id } })) as {
      sid: string;
      reauthenticated_at: string;
    }[];
    const fresh = (sid: string) => Date.now() - new Date(rows.find((row) => row.sid === sid)!.reauthenticated_at).getTime() < 60_000;
    expect(fresh(sidOf(member.jwt))).toBe(true);
    expect(fresh(sidOf(stolen))).toBe(false);
  });

  it('is a fresh log-in: a member who just signed in is not asked', async () => {
    const member = await register();
    const logIn = await call('POST', '/api/auth/local', { body: { identifier: member.email, password: member.password } });
    expect((await call('GET', '/api/account/export', { token: logIn.body.jwt })).status).toBe(200);
  });

  it('refuses a wrong password, records nothing, and counts it against the log-in throttle', async () => {
    const member = await register();
    await ageProof(member.jwt);
    const wrong = await stepUp(member.jwt, { password: 'not-the-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error?.message).toBe(stepUpMessages.wrongPassword);
    const missing = await stepUp(member.jwt, {});
    expect(missing.body.error?.message).toBe(stepUpMessages.passwordMissing);
    expectStepUpAsked(await call('GET', '/api/account/export', { token: member.jwt }), ['password']);
    // Nine more wrong passwords lock the account's password checks: the right one is refused too.
    for (let i = 0; i < 9; i += 1) await stepUp(member.jwt, { password: `wrong-${i}` });
    const locked = await stepUp(member.jwt, { password: member.password });
    expect(locked.status).toBe(429);
    expectStepUpAsked(await call('GET', '/api/account/export', { token: member.jwt }), ['password']);
  });

  it("takes one of the member's passkeys, never another member's", async () => {
    const member = await register();
    const { passkey } = await addPasskey(member);
    const stranger = await register();
    const { passkey: strangers } = await addPasskey(stranger);
    await ageProof(member.jwt);
    const foreign = await stepUp(member.jwt, await passkeyProof(strangers));
    expect(foreign.status).toBe(400);
    expect(foreign.body.error?.message).toBe(stepUpMessages.passkeyFailed);
    expectStepUpAsked(await call('GET', '/api/account/export', { token: member.jwt }), ['password', 'passkey']);
    expect((await stepUp(member.jwt, await passkeyProof(passkey))).status).toBe(200);
    expect((await call('GET', '/api/account/export', { token: member.jwt })).status).toBe(200);
  });

  it('needs a token (401) and a live session', async () => {
    const none = await call('POST', '/api/auth/step-up', { body: { password: 'x' } });
    expect(none.status).toBe(401);
    const member = await register();
    await app.strapi.db.query(SESSIONS).updateMany({ where: { sid: sidOf(member.jwt) }, data: { revoked_at: new Date() } });
    expect((await stepUp(member.jwt, { password: member.password })).status).toBe(401);
  });
});

describe(`recent passkeys (${RECENT_PASSKEY_MINUTES} minutes) go with "Log out of all devices" and a new password`, () => {
  /** Moves a passkey's creation back, as if it had been added that many minutes ago. */
  const addedMinutesAgo = (id: number, minutes: number) =>
    app.strapi.db.query('api::passkey.passkey').update({ where: { id }, data: { createdAt: new Date(Date.now() - minutes * 60_000) } });

  it('a passkey added 10 minutes before a logout-all no longer signs in after it; an older one still does', async () => {
    const victim = await register();
    const old = await addPasskey(victim);
    await addedMinutesAgo(old.id, RECENT_PASSKEY_MINUTES + 30);
    const planted = await addPasskey(victim);
    await addedMinutesAgo(planted.id, 10);
    expect((await passkeySignIn(planted.passkey)).status).toBe(200);

    expect((await call('POST', '/api/auth/logout-all', { token: victim.jwt })).status).toBe(200);
    expect((await passkeyRows(victim.id)).map((row) => row.id)).toEqual([old.id]);
    const refused = await passkeySignIn(planted.passkey);
    expect(refused.status).toBe(400);
    expect(refused.body.jwt).toBeUndefined();
    expect((await passkeySignIn(old.passkey)).status).toBe(200);
  });

  it('a password change removes the recent passkeys too', async () => {
    const victim = await register();
    const planted = await addPasskey(victim);
    await addedMinutesAgo(planted.id, 10);
    const changed = await call('POST', '/api/auth/change-password', {
      token: victim.jwt,
      body: { currentPassword: victim.password, password: 'Owner-New-Pass-8', passwordConfirmation: 'Owner-New-Pass-8' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await passkeyRows(victim.id)).toEqual([]);
    expect((await passkeySignIn(planted.passkey)).status).toBe(400);
  });
});
