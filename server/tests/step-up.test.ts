import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { TOTP } from 'otpauth';
import { bootStrapi, request, type TestStrapi } from './helpers/strapi';
import type { ApiError, AuthResponse } from './helpers/types';
import { softwarePasskey, type SoftwarePasskey } from './helpers/software-authenticator';
import { stepUpMessages, type StepUpRequired } from '../src/contract/stepUp';
import { RECENT_PASSKEY_MINUTES, STEP_UP_WINDOW_SEC } from '../src/security/step-up';

/**
 * Issue 28, "A stolen session must not become a permanent foothold": step-up before changing how the
 * account signs in, deleting it or downloading its data. Each attack is made with a stolen session
 * token whose proof of presence is older than the window (its session row's reauthenticated_at moved
 * back), and the victim's rows are re-read to prove nothing changed; then a fresh step-up on that
 * session lets the owner do it. A proof on one session never serves another.
 */

const ORIGIN = 'https://carnivo.test';
const RP_ID = 'carnivo.test';
const SESSIONS = 'api::member-session.member-session';

let app: TestStrapi;
let tmpDir: string;

interface Member {
  id: number;
  jwt: string;
  email: string;
  password: string;
}
type Body = Record<string, unknown> & { error?: ApiError['error']; jwt?: string; secret?: string; challenge?: string };

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', route: string, options: { token?: string; body?: unknown } = {}) =>
  request<Body>(app.baseUrl, method, route, options);

let counter = 0;
async function register(prefix = 'su'): Promise<Member> {
  const username = `${prefix}${++counter}x${Date.now() % 100000}`;
  const email = `${username}@example.com`;
  const password = `${username}-Pass-1`;
  const res = await request<AuthResponse>(app.baseUrl, 'POST', '/api/auth/local/register', { body: { username, email, password } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.user.id, jwt: res.body.jwt, email, password };
}

const sidOf = (jwt: string): string => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')).sid as string;

/** The session's proof of presence moved back past the window: what a stolen, older token holds. */
async function ageProof(jwt: string, seconds = STEP_UP_WINDOW_SEC + 60): Promise<void> {
  const { count } = await app.strapi.db
    .query(SESSIONS)
    .updateMany({ where: { sid: sidOf(jwt) }, data: { reauthenticated_at: new Date(Date.now() - seconds * 1000) } });
  expect(count).toBe(1);
}

const stepUp = (jwt: string, body: unknown) => call('POST', '/api/auth/step-up', { token: jwt, body });

function expectStepUpAsked(res: { status: number; body: Body }, methods: StepUpRequired['methods']) {
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  expect(res.body.error?.message).toBe(stepUpMessages.required);
  expect(res.body.error?.details).toEqual({ stepUp: true, methods });
}

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
  app.strapi.db.query('api::passkey.passkey').findMany({ where: { user: { id: memberId } } }) as Promise<
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

/** The app code of the current 30-second step, or of `steps` later. */
const codeOf = (secret: string, steps = 0) =>
  TOTP.generate({ secret: new TOTP({ secret }).secret, timestamp: Date.now() + steps * 30_000 });
async function awayFromStepEdge() {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 4_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

/** Two-factor turned on while the session is fresh; the secret for later codes, and the recovery codes. */
async function turnOnTwoFactor(member: Member): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await call('POST', '/api/two-factor/setup', { token: member.jwt });
  expect(setup.status, JSON.stringify(setup.body)).toBe(200);
  await awayFromStepEdge();
  const enabled = await call('POST', '/api/two-factor/enable', { token: member.jwt, body: { code: codeOf(setup.body.secret!) } });
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
  return { secret: setup.body.secret!, recoveryCodes: enabled.body.recoveryCodes as string[] };
}

async function addPasskey(member: Member, passkey = softwarePasskey({ origin: ORIGIN, rpId: RP_ID })) {
  const options = await call('POST', '/api/passkeys/registration-options', { token: member.jwt });
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  const saved = await call('POST', '/api/passkeys', {
    token: member.jwt,
    body: { credential: passkey.register(options.body as { challenge: string }) },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  return { passkey, id: (saved.body.data as { id: number }).id };
}

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
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-step-up-'));
  app = await bootStrapi({
    env: { EMAIL_OUTBOX_DIR: path.join(tmpDir, 'outbox'), SMTP_HOST: '', AUTH_RATELIMIT_ENABLED: 'false', PUBLIC_URL: ORIGIN },
  });
});

afterAll(async () => {
  await app?.stop();
  fs.rmSync(tmpDir, { recursive: true, force: true });
});

describe('step-up: a stolen session alone changes nothing', () => {
  it('cannot add a passkey to a member with two-factor on; after a code on this session it can', async () => {
    const victim = await register();
    const { recoveryCodes } = await turnOnTwoFactor(victim);
    await ageProof(victim.jwt);
    expectStepUpAsked(await call('POST', '/api/passkeys/registration-options', { token: victim.jwt }), ['code']);
    // Options of the attacker's own making: refused before the credential is even read.
    const attacker = softwarePasskey({ origin: ORIGIN, rpId: RP_ID });
    expectStepUpAsked(
      await call('POST', '/api/passkeys', { token: victim.jwt, body: { credential: attacker.register({ challenge: 'c3RvbGVu' }) } }),
      ['code'],
    );
    expect(await passkeyRows(victim.id)).toEqual([]);
    expect(await app.strapi.db.query('api::passkey.passkey-challenge').count({ where: { member_id: victim.id } })).toBe(0);

    // The password alone is not a proof once two-factor is on.
    const byPassword = await stepUp(victim.jwt, { password: victim.password });
    expect(byPassword.status).toBe(400);
    expect(byPassword.body.error?.message).toBe(stepUpMessages.codeNeeded);
    expectStepUpAsked(await call('POST', '/api/passkeys/registration-options', { token: victim.jwt }), ['code']);

    const wrongCode = await stepUp(victim.jwt, { code: '000000' });
    expect(wrongCode.status).toBe(400);
    const proved = await stepUp(victim.jwt, { code: recoveryCodes[0] });
    expect(proved.status, JSON.stringify(proved.body)).toBe(200);
    await addPasskey(victim);
    expect(await passkeyRows(victim.id)).toHaveLength(1);
  });

  it("cannot turn two-factor on with the attacker's authenticator; after the password it can", async () => {
    const victim = await register();
    await ageProof(victim.jwt);
    expectStepUpAsked(await call('POST', '/api/two-factor/setup', { token: victim.jwt }), ['password']);
    expectStepUpAsked(await call('POST', '/api/two-factor/enable', { token: victim.jwt, body: { code: '123456' } }), ['password']);
    expect(await twoFactorRow(victim.id)).toBeNull();

    expect((await stepUp(victim.jwt, { password: victim.password })).status).toBe(200);
    await turnOnTwoFactor(victim);
    expect((await twoFactorRow(victim.id))?.enabled_at).toBeTruthy();
  });

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

  it('cannot delete the account, change the e-mail or the password, or download the data', async () => {
    const victim = await register();
    await ageProof(victim.jwt);
    const before = await userRow(victim.id);

    expectStepUpAsked(await call('DELETE', '/api/users-permissions/users/delete-account', { token: victim.jwt }), ['password']);
    // Even with the current password in the request (a phished password and a stolen token), the session must step up first.
    expectStepUpAsked(
      await call('PUT', `/api/users/${victim.id}`, {
        token: victim.jwt,
        body: { email: `taken.${victim.email}`, currentPassword: victim.password },
      }),
      ['password'],
    );
    expectStepUpAsked(
      await call('POST', '/api/auth/change-password', {
        token: victim.jwt,
        body: { currentPassword: victim.password, password: 'Attacker-Pass-9', passwordConfirmation: 'Attacker-Pass-9' },
      }),
      ['password'],
    );
    const exported = await call('GET', '/api/account/export', { token: victim.jwt });
    expectStepUpAsked(exported, ['password']);
    expect(JSON.stringify(exported.body)).not.toContain(victim.email);

    expect(await userRow(victim.id)).toEqual(before);
    expect((await userRow(victim.id))?.pending_email).toBeNull();
    // The session still works for everything else.
    expect((await call('GET', '/api/users/me', { token: victim.jwt })).status).toBe(200);

    // The owner proves presence; each action then goes through.
    expect((await stepUp(victim.jwt, { password: victim.password })).status).toBe(200);
    const exportedNow = await call('GET', '/api/account/export', { token: victim.jwt });
    expect(exportedNow.status).toBe(200);
    const changed = await call('PUT', `/api/users/${victim.id}`, {
      token: victim.jwt,
      body: { email: `new.${victim.email}`, currentPassword: victim.password },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await userRow(victim.id))?.pending_email).toBe(`new.${victim.email}`);
    const deleted = await call('DELETE', '/api/users-permissions/users/delete-account', { token: victim.jwt });
    expect(deleted.status).toBe(200);
    expect(await userRow(victim.id)).toBeNull();
  });

  it('changes the password after a step-up', async () => {
    const victim = await register();
    await ageProof(victim.jwt);
    expect((await stepUp(victim.jwt, { password: victim.password })).status).toBe(200);
    const before = await userRow(victim.id);
    const changed = await call('POST', '/api/auth/change-password', {
      token: victim.jwt,
      body: { currentPassword: victim.password, password: 'Owner-New-Pass-7', passwordConfirmation: 'Owner-New-Pass-7' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await userRow(victim.id))?.password).not.toBe(before?.password);
  });

  it('cannot add or remove a passkey, and the window is the constant', async () => {
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
