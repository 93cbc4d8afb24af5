import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { missingServices, startCluster, type Cluster, type Instance } from '../helpers/instances';
import type { ApiError, AuthResponse } from '../helpers/types';
import { stepUpMessages } from '../../src/contract/stepUp';
import {
  ORIGIN,
  accountActions,
  changePassword,
  passkeyOnTwoFactorMember,
  removePasskey,
  twoFactorWithAttackersAuthenticator,
  type StepUpSurface,
} from '../helpers/step-up-attacks';

/**
 * Step-up on two instances sharing one PostgreSQL database (docs/security.md#step-up): a proof made on
 * instance A is honoured on B at once (it is the session row, nothing is kept per process), and a
 * proof older than the window is refused on both. The stolen-session attacks of step-up.test.ts
 * (helpers/step-up-attacks.ts) are made with the owner's session on A and its stolen token on B.
 * The victim's rows are re-read in the database.
 */

const missing = await missingServices();
if (missing) console.warn(`[step-up-cluster.test] skipped: ${missing}`);

const WINDOW_SEC = 600;
let cluster: Cluster;
let a: Instance;
let b: Instance;
type Answer = Partial<AuthResponse> & Partial<ApiError> & Record<string, unknown>;
const call = (instance: Instance, method: string, path: string, options: { body?: unknown; token?: string } = {}) =>
  cluster.call<Answer>(instance, method, path, options);
const sidOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')).sid as string;

const sql: Cluster['sql'] = (...args) => cluster.sql(...args);

/** The session's proof moved `seconds` into the past, as a stolen older token holds it. */
const ageProof = (jwt: string, seconds: number) =>
  sql('UPDATE member_sessions SET reauthenticated_at = $1 WHERE sid = $2', [new Date(Date.now() - seconds * 1000), sidOf(jwt)]);
const userRow = async (id: number) =>
  (await sql<{ id: number; email: string; password: string }>('SELECT id, email, password FROM up_users WHERE id = $1', [id]))[0] ?? null;

const countOf = async (text: string, values: unknown[]) => Number((await sql<{ n: string }>(text, values))[0]!.n);

/** The owner on A, the thief on B; rows read in SQL. */
const surface: StepUpSurface = {
  register: (username) => cluster.register(a, username),
  call: (side, method, path, options) => call(side === 'owner' ? a : b, method, path, options),
  ageProof: async (jwt) => {
    await ageProof(jwt, WINDOW_SEC + 60);
  },
  userRow: async (id) =>
    (
      await sql<{ email: string; password: string; pending_email: string | null }>(
        'SELECT email, password, pending_email FROM up_users WHERE id = $1',
        [id],
      )
    )[0] ?? null,
  passkeyIds: async (id) =>
    (await sql<{ id: number }>('SELECT passkey_id AS id FROM passkeys_user_lnk WHERE user_id = $1 ORDER BY passkey_id', [id])).map((row) =>
      Number(row.id),
    ),
  challenges: (id) => countOf('SELECT count(*) AS n FROM passkey_challenges WHERE member_id = $1', [id]),
  twoFactor: async (id) => ({
    row:
      (
        await sql<{ secret: string | null; pending_secret: string | null; enabled_at: unknown }>(
          'SELECT secret, pending_secret, enabled_at FROM two_factors WHERE user_id = $1',
          [id],
        )
      )[0] ?? null,
    codes: await countOf('SELECT count(*) AS n FROM two_factor_recovery_codes WHERE user_id = $1', [id]),
  }),
};

let count = 0;
const register = (instance: Instance) => cluster.register(instance, `clusterstep${++count}x${Date.now() % 100000}`);

function expectStepUpAsked(res: { status: number; body: Answer }) {
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  expect(res.body.error?.message).toBe(stepUpMessages.required);
  expect((res.body.error?.details as { stepUp?: boolean } | undefined)?.stepUp).toBe(true);
}

describe.skipIf(missing !== null)('step-up on two instances (PostgreSQL)', () => {
  beforeAll(async () => {
    // One PUBLIC_URL for both: the passkeys' relying party.
    cluster = await startCluster(2, { STEP_UP_WINDOW_SEC: String(WINDOW_SEC), AUTH_RATELIMIT_ENABLED: 'false', PUBLIC_URL: ORIGIN });
    [a, b] = cluster.instances;
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  it('a proof made on A is honoured on B; an expired one is refused on both and deletes nothing', async () => {
    const member = await register(a);
    await ageProof(member.jwt, WINDOW_SEC + 60);
    for (const instance of [a, b])
      expectStepUpAsked(await call(instance, 'DELETE', '/api/users-permissions/users/delete-account', { token: member.jwt }));
    expect(await userRow(member.id)).not.toBeNull();

    expect((await call(a, 'POST', '/api/auth/step-up', { token: member.jwt, body: { password: member.password } })).status).toBe(200);
    expect((await call(b, 'GET', '/api/account/export', { token: member.jwt })).status).toBe(200);

    // The proof ages past the window: both instances refuse again.
    await ageProof(member.jwt, WINDOW_SEC + 1);
    for (const instance of [b, a]) expectStepUpAsked(await call(instance, 'GET', '/api/account/export', { token: member.jwt }));
    for (const instance of [b, a])
      expectStepUpAsked(await call(instance, 'DELETE', '/api/users-permissions/users/delete-account', { token: member.jwt }));
    expect(await userRow(member.id)).not.toBeNull();

    expect((await call(b, 'POST', '/api/auth/step-up', { token: member.jwt, body: { password: member.password } })).status).toBe(200);
    expect((await call(a, 'DELETE', '/api/users-permissions/users/delete-account', { token: member.jwt })).status).toBe(200);
    expect(await userRow(member.id)).toBeNull();
  });

  it('a proof on one session does not serve the same member’s other session, on either instance', async () => {
    const member = await register(a);
    const second = await call(b, 'POST', '/api/auth/local', { body: { identifier: member.email, password: member.password } });
    expect(second.status).toBe(200);
    const stolen = second.body.jwt!;
    await ageProof(member.jwt, WINDOW_SEC + 60);
    await ageProof(stolen, WINDOW_SEC + 60);
    expect((await call(a, 'POST', '/api/auth/step-up', { token: member.jwt, body: { password: member.password } })).status).toBe(200);
    const before = await userRow(member.id);
    for (const instance of [a, b]) {
      expectStepUpAsked(
        await call(instance, 'POST', '/api/auth/change-password', {
          token: stolen,
          body: { currentPassword: member.password, password: 'Attacker-Pass-9', passwordConfirmation: 'Attacker-Pass-9' },
        }),
      );
    }
    expect(await userRow(member.id)).toEqual(before);
  });

  describe('a stolen token on B while the owner is on A', () => {
    it('cannot add a passkey to a member with two-factor on; after a recovery code on A the owner adds one on B', () =>
      passkeyOnTwoFactorMember(surface));

    it("cannot turn two-factor on with the attacker's authenticator; after the password on A the owner turns it on on B", () =>
      twoFactorWithAttackersAuthenticator(surface));

    it('cannot remove a passkey; after the password on A the owner removes it on B', () => removePasskey(surface));

    it('cannot delete the account, change the e-mail or the password, or download the data; after a step-up on A each works on B', () =>
      accountActions(surface));

    it('cannot change the password; after a step-up on A the owner changes it on B', () => changePassword(surface));
  });
});
