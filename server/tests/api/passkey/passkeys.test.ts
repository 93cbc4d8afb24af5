import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { boot, type TestApp } from '../../helpers/app';
import type { Member } from '../../helpers/members';
import { request } from '../../helpers/strapi';
import type { ApiError, AuthResponse } from '../../helpers/types';
import { softwarePasskey, type SoftwarePasskey } from '../../helpers/software-authenticator';
import { passkeyMessages, type AddPasskeyResponse, type PasskeysResponse } from '../../../src/contract/passkeys';

/**
 * Issue 23 item 1, passkeys: registration and sign-in verified against real WebAuthn responses made
 * by a software authenticator, and the attacks: a replayed challenge, a challenge issued to another
 * member, another member's passkey id, a counter going backwards, a wrong origin or rp id. Every
 * refused attack is checked by re-reading the stored rows, not only the status code.
 */

const ORIGIN = 'https://carnivo.test';
const RP_ID = 'carnivo.test';

let app: TestApp;

type Options = { challenge: string; rp?: { id: string }; excludeCredentials?: { id: string }[] };
type Answer<T> = { status: number; body: T & { error?: ApiError['error'] } };

let counter = 0;
const register = (prefix: string) => app.register(`${prefix}${++counter}`);

const registrationOptions = async (member: Member) => {
  const res = await request<Options>(app.baseUrl, 'POST', '/api/passkeys/registration-options', { token: member.jwt });
  expect(res.status).toBe(200);
  return res.body;
};
const save = (member: Member, credential: unknown, name?: string) =>
  request<AddPasskeyResponse & { error?: ApiError['error'] }>(app.baseUrl, 'POST', '/api/passkeys', {
    token: member.jwt,
    body: { credential, name },
  });
const list = async (member: Member) => {
  const res = await request<PasskeysResponse>(app.baseUrl, 'GET', '/api/passkeys', { token: member.jwt });
  expect(res.status).toBe(200);
  return res.body.data;
};
const signInOptions = async () => {
  const res = await request<Options>(app.baseUrl, 'POST', '/api/auth/passkey/options');
  expect(res.status).toBe(200);
  return res.body;
};
const signIn = (credential: unknown): Promise<Answer<AuthResponse>> =>
  request<AuthResponse & { error?: ApiError['error'] }>(app.baseUrl, 'POST', '/api/auth/passkey', { body: { credential } });

/** The stored passkey rows, whoever owns them (the database, not the API). */
const rows = (where: Record<string, unknown> = {}) =>
  app.strapi.db.query('api::passkey.passkey').findMany({ where, populate: ['user'] }) as Promise<
    {
      id: number;
      credential_id: string;
      counter: number | string;
      last_used_at: string | null;
      name: string;
      user: { id: number } | null;
    }[]
  >;
const challengeCount = () => app.strapi.db.query('api::passkey.passkey-challenge').count({});

/** A member with one registered software passkey. */
async function memberWithPasskey(prefix: string): Promise<{ member: Member; passkey: SoftwarePasskey; id: number }> {
  const member = await register(prefix);
  const passkey = softwarePasskey({ origin: ORIGIN, rpId: RP_ID });
  const saved = await save(member, passkey.register(await registrationOptions(member)), 'Laptop');
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  return { member, passkey, id: saved.body.data.id };
}

beforeAll(async () => {
  app = await boot({ outbox: true, limits: 'off', env: { PUBLIC_URL: ORIGIN } });
});

afterAll(async () => {
  await app?.stop();
});

describe('passkeys: registration, listing and sign-in', () => {
  it('answers 401 Not authenticated without a token on the member routes', async () => {
    for (const [method, route] of [
      ['POST', '/api/passkeys/registration-options'],
      ['GET', '/api/passkeys'],
      ['POST', '/api/passkeys'],
      ['DELETE', '/api/passkeys/1'],
    ] as const) {
      const res = await request<ApiError>(app.baseUrl, method, route, method === 'POST' ? { body: {} } : {});
      expect(res.status, route).toBe(401);
      expect(res.body.error.message).toBe('Not authenticated');
    }
  });

  it('registers a passkey for the site (rp id and origin from PUBLIC_URL) and lists it with its dates', async () => {
    const member = await register('reg');
    const options = await registrationOptions(member);
    expect(options.rp?.id).toBe(RP_ID);
    const passkey = softwarePasskey({ origin: ORIGIN, rpId: RP_ID });
    const saved = await save(member, passkey.register(options), '  Work   laptop ');
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body.data).toMatchObject({ name: 'Work laptop', lastUsedAt: null });
    const listed = await list(member);
    expect(listed).toEqual([saved.body.data]);
    expect(Date.parse(listed[0]!.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    // The next options exclude it, so the same authenticator is not registered twice.
    expect((await registrationOptions(member)).excludeCredentials?.map((credential) => credential.id)).toEqual([passkey.credentialId]);
  });

  it('names an unnamed passkey after the browser, and refuses a name that is too long', async () => {
    const member = await register('name');
    const passkey = softwarePasskey({ origin: ORIGIN, rpId: RP_ID });
    const tooLong = await save(member, passkey.register(await registrationOptions(member)), 'x'.repeat(61));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error?.message).toBe(passkeyMessages.nameTooLong);
    expect(await rows({ user: { id: member.id } })).toEqual([]);
    const res = await fetch(`${app.baseUrl}/api/passkeys`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${member.jwt}`,
        'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      },
      body: JSON.stringify({ credential: passkey.register(await registrationOptions(member)) }),
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as AddPasskeyResponse).data.name).toBe('Chrome on Linux');
  });

  it('signs in with the passkey: a full session, { jwt, user } like a password log-in, last use recorded', async () => {
    const { member, passkey } = await memberWithPasskey('sign');
    const res = await signIn(passkey.authenticate(await signInOptions()));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user.id).toBe(member.id);
    expect(res.body.user).not.toHaveProperty('password');
    expect((await app.me(res.body.jwt)).body.id).toBe(member.id);
    const [stored] = await rows({ user: { id: member.id } });
    expect(Number(stored!.counter)).toBe(1);
    expect((await list(member))[0]!.lastUsedAt).not.toBeNull();
  });

  it('a passkey session is revoked by "Log out of all devices" and by a password change', async () => {
    const { member, passkey, id } = await memberWithPasskey('revoke');
    // Added long ago: "Log out of all devices" and a new password remove only recent ones (step-up.test.ts).
    await app.strapi.db.query('api::passkey.passkey').update({ where: { id }, data: { createdAt: new Date(Date.now() - 2 * 3_600_000) } });
    const first = await signIn(passkey.authenticate(await signInOptions()));
    expect(first.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await request(app.baseUrl, 'POST', '/api/auth/logout-all', { token: member.jwt })).status).toBe(200);
    expect((await app.me(first.body.jwt)).status).toBe(401);

    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await signIn(passkey.authenticate(await signInOptions()));
    expect(second.status).toBe(200);
    expect((await app.me(second.body.jwt)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const changed = await request(app.baseUrl, 'POST', '/api/auth/change-password', {
      token: second.body.jwt,
      body: { currentPassword: member.password, password: 'Another-Pass-2', passwordConfirmation: 'Another-Pass-2' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await app.me(second.body.jwt)).status).toBe(401);
  });

  it('refuses a blocked account, and a passkey nobody registered', async () => {
    const { member, passkey } = await memberWithPasskey('blocked');
    await app.strapi.db.query('plugin::users-permissions.user').update({ where: { id: member.id }, data: { blocked: true } });
    const blocked = await signIn(passkey.authenticate(await signInOptions()));
    expect(blocked.status).toBe(400);
    expect(blocked.body.error?.message).toBe('Your account has been blocked by an administrator');
    expect(blocked.body.jwt).toBeUndefined();

    const stranger = softwarePasskey({ origin: ORIGIN, rpId: RP_ID });
    const unknown = await signIn(stranger.authenticate(await signInOptions()));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error?.message).toBe(passkeyMessages.unknownPasskey);
  });

  it('answers malformed credentials with 400 and a message, storing nothing', async () => {
    const member = await register('bad');
    for (const body of [
      {},
      { credential: 'x' },
      { credential: { id: 'a', response: {} } },
      { credential: { id: 'a', response: { clientDataJSON: '!!' } } },
    ]) {
      const added = await request<ApiError>(app.baseUrl, 'POST', '/api/passkeys', { token: member.jwt, body });
      expect(added.status, JSON.stringify(body)).toBe(400);
      expect(added.body.error.message).toBe(passkeyMessages.credentialMissing);
      const signedIn = await request<ApiError>(app.baseUrl, 'POST', '/api/auth/passkey', { body });
      expect(signedIn.status, JSON.stringify(body)).toBe(400);
    }
    expect(await rows({ user: { id: member.id } })).toEqual([]);
  });

  it('account deletion removes the passkeys', async () => {
    const { member } = await memberWithPasskey('gone');
    expect(await rows({ user: { id: member.id } })).toHaveLength(1);
    const deleted = await request(app.baseUrl, 'DELETE', '/api/users-permissions/users/delete-account', { token: member.jwt });
    expect(deleted.status).toBe(200);
    expect((await rows()).filter((row) => row.user === null || row.user.id === member.id)).toEqual([]);
  });
});

describe('passkeys: attacks', () => {
  it('a replayed registration challenge fails, and nothing more is stored', async () => {
    const member = await register('replayreg');
    const options = await registrationOptions(member);
    const first = softwarePasskey({ origin: ORIGIN, rpId: RP_ID });
    const second = softwarePasskey({ origin: ORIGIN, rpId: RP_ID });
    expect((await save(member, first.register(options))).status).toBe(201);
    const replay = await save(member, second.register(options));
    expect(replay.status).toBe(400);
    expect(replay.body.error?.message).toBe(passkeyMessages.challengeExpired);
    expect((await rows({ user: { id: member.id } })).map((row) => row.credential_id)).toEqual([first.credentialId]);
  });

  it('a replayed sign-in (the same signed answer twice) fails, and the counter stays', async () => {
    const { passkey, id } = await memberWithPasskey('replaysign');
    const answer = passkey.authenticate(await signInOptions());
    expect((await signIn(answer)).status).toBe(200);
    const [before] = await rows({ id });
    const replay = await signIn(answer);
    expect(replay.status).toBe(400);
    expect(replay.body.error?.message).toBe(passkeyMessages.challengeExpired);
    expect(replay.body.jwt).toBeUndefined();
    expect(await rows({ id })).toEqual([before]);
  });

  it('concurrent answers to one sign-in challenge: exactly one session', async () => {
    const { passkey } = await memberWithPasskey('race');
    const options = await signInOptions();
    const answers = [1, 2, 3, 4, 5].map(() => passkey.authenticate(options));
    const results = await Promise.all(answers.map(signIn));
    expect(results.filter((res) => res.status === 200)).toHaveLength(1);
    expect(results.filter((res) => res.status === 400)).toHaveLength(4);
  });

  it('a challenge issued to another member is refused; it still works for its owner', async () => {
    const attacker = await register('attacker');
    const victim = await register('victim');
    const victimOptions = await registrationOptions(victim);
    const attackerKey = softwarePasskey({ origin: ORIGIN, rpId: RP_ID });
    const stolen = await save(attacker, attackerKey.register(victimOptions));
    expect(stolen.status).toBe(400);
    expect(stolen.body.error?.message).toBe(passkeyMessages.challengeExpired);
    expect(await rows({ credential_id: attackerKey.credentialId })).toEqual([]);
    // The victim's challenge was not consumed by the attempt.
    const victimKey = softwarePasskey({ origin: ORIGIN, rpId: RP_ID });
    expect((await save(victim, victimKey.register(victimOptions))).status).toBe(201);
    expect((await list(attacker)).length).toBe(0);
  });

  it("another member's passkey id: 404, and it still lists and signs in for its owner", async () => {
    const owner = await memberWithPasskey('owner');
    const other = await register('other');
    const res = await request<ApiError>(app.baseUrl, 'DELETE', `/api/passkeys/${owner.id}`, { token: other.jwt });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe(passkeyMessages.notFound);
    expect(await rows({ id: owner.id })).toHaveLength(1);
    expect((await list(owner.member)).map((passkey) => passkey.id)).toEqual([owner.id]);
    expect((await signIn(owner.passkey.authenticate(await signInOptions()))).status).toBe(200);
    // Ids that are no passkey's: 404 too.
    for (const id of ['999999', '0', 'abc', '99999999999']) {
      expect((await request(app.baseUrl, 'DELETE', `/api/passkeys/${id}`, { token: other.jwt })).status, id).toBe(404);
    }
    // Its owner removes it: gone from the list, and it signs in no more.
    expect((await request(app.baseUrl, 'DELETE', `/api/passkeys/${owner.id}`, { token: owner.member.jwt })).status).toBe(200);
    expect(await list(owner.member)).toEqual([]);
    const after = await signIn(owner.passkey.authenticate(await signInOptions()));
    expect(after.status).toBe(400);
    expect(after.body.error?.message).toBe(passkeyMessages.unknownPasskey);
  });

  it('a counter going backwards (or standing still) is refused; the stored counter stays', async () => {
    const { passkey, id } = await memberWithPasskey('clone');
    for (let i = 0; i < 3; i++) expect((await signIn(passkey.authenticate(await signInOptions()))).status).toBe(200);
    const [before] = await rows({ id });
    expect(Number(before!.counter)).toBe(3);
    for (const counterValue of [2, 3]) {
      const cloned = await signIn(passkey.authenticate(await signInOptions(), { counter: counterValue }));
      expect(cloned.status, `counter ${counterValue}`).toBe(400);
      expect(cloned.body.error?.message).toBe(passkeyMessages.signInFailed);
      expect(cloned.body.jwt).toBeUndefined();
    }
    expect(await rows({ id })).toEqual([before]);
  });

  it('a wrong origin or rp id is refused, at registration and at sign-in', async () => {
    const member = await register('phish');
    for (const where of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }, { origin: 'http://carnivo.test' }]) {
      const passkey = softwarePasskey({ origin: ORIGIN, rpId: RP_ID });
      const res = await save(member, passkey.register(await registrationOptions(member), where));
      expect(res.status, JSON.stringify(where)).toBe(400);
      expect(res.body.error?.message).toBe(passkeyMessages.registrationFailed);
    }
    expect(await rows({ user: { id: member.id } })).toEqual([]);

    const { passkey, id } = await memberWithPasskey('phished');
    const [before] = await rows({ id });
    for (const where of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }]) {
      const res = await signIn(passkey.authenticate(await signInOptions(), { ...where, counter: 5 }));
      expect(res.status, JSON.stringify(where)).toBe(400);
      expect(res.body.jwt).toBeUndefined();
    }
    expect(await rows({ id })).toEqual([before]);
  });

  it('a registration without user verification is refused', async () => {
    const member = await register('nouv');
    const passkey = softwarePasskey({ origin: ORIGIN, rpId: RP_ID });
    const res = await save(member, passkey.register(await registrationOptions(member), { userVerified: false }));
    expect(res.status).toBe(400);
    expect(await rows({ user: { id: member.id } })).toEqual([]);
  });

  it('an expired challenge is refused, and expired challenges are cleared', async () => {
    const member = await register('late');
    const options = await registrationOptions(member);
    await app.strapi.db
      .query('api::passkey.passkey-challenge')
      .updateMany({ where: { challenge: options.challenge }, data: { expires_at: Date.now() - 1 } });
    const res = await save(member, softwarePasskey({ origin: ORIGIN, rpId: RP_ID }).register(options));
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe(passkeyMessages.challengeExpired);
    expect(await rows({ user: { id: member.id } })).toEqual([]);
    const before = await challengeCount();
    await signInOptions();
    // The expired one went, the new one came.
    expect(await challengeCount()).toBe(before);
  });

  it('the sign-in routes are rate-limited like the other auth routes', async () => {
    const original = app.strapi.config.get('security.authRateLimit');
    app.strapi.config.set('security.authRateLimit', { enabled: true, max: 3, intervalMs: 60_000 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await request(app.baseUrl, 'POST', '/api/auth/passkey', { body: {} })).status);
      expect(statuses).toEqual([400, 400, 400, 429]);
      const options = await request(app.baseUrl, 'POST', '/api/auth/passkey/options');
      expect([200, 429]).toContain(options.status);
    } finally {
      app.strapi.config.set('security.authRateLimit', original);
    }
  });
});
