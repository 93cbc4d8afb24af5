import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { missingServices, startCluster, withPostgres, type Cluster, type Instance } from '../../helpers/instances';
import type { ApiError, AuthResponse } from '../../helpers/types';
import { softwarePasskey } from '../../helpers/software-authenticator';
import { ownRedisMissing, startOwnRedis, type OwnRedis } from '../../helpers/own-services';
import { passkeyMessages } from '../../../src/contract/passkeys';
import { SESSION_ROWS_LOCK } from '../../../src/security/sessions/row-lock';

/**
 * Passkey challenges across instances (issue 23): a challenge issued by one server process is
 * answered on another (the table is shared), and used once in the whole cluster. And a passkey sign-in
 * racing what removes the passkey ("Log out of all devices", a new password) never keeps a session.
 */

// A Redis of its own (the auth limits' counters), so the shared one's databases stay untouched.
const missing = (await missingServices()) ?? ownRedisMissing();
if (missing) console.warn(`[passkeys-cluster.test] skipped: ${missing}`);

const ORIGIN = 'https://carnivo.test';
const RP_ID = 'carnivo.test';

let redis: OwnRedis | undefined;
let cluster: Cluster;
let a: Instance;
let b: Instance;

const call = <T>(instance: Instance, method: string, path: string, options: { body?: unknown; token?: string } = {}) =>
  cluster.call<T & { error?: ApiError['error'] }>(instance, method, path, options);

describe.skipIf(missing !== null)('passkeys on two instances sharing one database', () => {
  beforeAll(async () => {
    redis = await startOwnRedis();
    cluster = await startCluster(2, { PUBLIC_URL: ORIGIN }, { redis: redis.target });
    [a, b] = cluster.instances;
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
    await redis?.cleanup();
  }, 60_000);

  it('registers on one instance what the other issued, signs in across them, and a challenge works once in the cluster', async () => {
    const registered = await cluster.register(a, 'clusterkey');
    const jwt = registered.jwt;
    const passkey = softwarePasskey({ origin: ORIGIN, rpId: RP_ID });

    const options = await call<{ challenge: string }>(a, 'POST', '/api/passkeys/registration-options', { token: jwt });
    expect(options.status).toBe(200);
    const saved = await call(b, 'POST', '/api/passkeys', { token: jwt, body: { credential: passkey.register(options.body) } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);

    const challenge = await call<{ challenge: string }>(b, 'POST', '/api/auth/passkey/options');
    const answer = passkey.authenticate(challenge.body);
    const signedIn = await call<AuthResponse>(a, 'POST', '/api/auth/passkey', { body: { credential: answer } });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user.id).toBe(registered.id);
    // The same answer on the other instance: the challenge is gone everywhere.
    const replayed = await call<AuthResponse>(b, 'POST', '/api/auth/passkey', { body: { credential: answer } });
    expect(replayed.status).toBe(400);
    expect(replayed.body.error?.message).toBe(passkeyMessages.challengeExpired);

    // Answers to one challenge sent to both instances at once: exactly one session.
    const next = await call<{ challenge: string }>(a, 'POST', '/api/auth/passkey/options');
    const answers = [1, 2, 3, 4, 5, 6].map(() => passkey.authenticate(next.body));
    const results = await Promise.all(
      answers.map((credential, index) => call<AuthResponse>(index % 2 ? a : b, 'POST', '/api/auth/passkey', { body: { credential } })),
    );
    expect(results.map((result) => result.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    const listed = await call<{ data: { lastUsedAt: string | null }[] }>(b, 'GET', '/api/passkeys', { token: jwt });
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]!.lastUsedAt).not.toBeNull();
  });

  /** A member with one passkey added just now (so one that log-out-all and a new password remove), and its helpers. */
  async function memberWithNewPasskey(username: string) {
    const member = await cluster.register(a, username);
    const memberId = (JSON.parse(Buffer.from(member.jwt.split('.')[1]!, 'base64url').toString('utf8')) as { id: number }).id;
    const passkey = softwarePasskey({ origin: ORIGIN, rpId: RP_ID });
    const options = await call<{ challenge: string }>(a, 'POST', '/api/passkeys/registration-options', { token: member.jwt });
    const saved = await call(b, 'POST', '/api/passkeys', { token: member.jwt, body: { credential: passkey.register(options.body) } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const signIn = async (instance: Instance) => {
      const challenge = await call<{ challenge: string }>(instance, 'POST', '/api/auth/passkey/options');
      return call<AuthResponse>(instance, 'POST', '/api/auth/passkey', { body: { credential: passkey.authenticate(challenge.body) } });
    };
    const liveSids = async () =>
      (await cluster.sql<{ sid: string }>('SELECT sid FROM member_sessions WHERE member_id = $1 AND revoked_at IS NULL', [memberId])).map(
        (row) => row.sid,
      );
    return { member, memberId, signIn, liveSids };
  }
  const sidOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sid: string }).sid;
  const works = async (token: string) => (await call(b, 'GET', '/api/users/me', { token })).status;

  it('a passkey sign-in checked just before "Log out of all devices" removed the passkey, and signed just after it revoked, is refused', async () => {
    const { memberId, signIn, liveSids } = await memberWithNewPasskey('passkeyrace1');
    // "Log out of all devices" as it could interleave, held open under the member's session lock: its revocation
    // is stamped first; the sign-in verifies the passkey (not removed yet, as far as it can see) and signs its token
    // after that stamp, then its row waits for the lock; the passkey is removed, and only then does it all commit.
    const signedIn = await withPostgres(async (pg) => {
      await pg.query('BEGIN');
      await pg.query('SELECT pg_advisory_xact_lock($1, $2)', [SESSION_ROWS_LOCK, memberId]);
      await pg.query(
        `UPDATE "${cluster.schema}".member_sessions SET revoked_at = clock_timestamp(), revoked_everywhere = true
           WHERE member_id = $1 AND revoked_at IS NULL`,
        [memberId],
      );
      const pending = signIn(b);
      let answered = false;
      void pending.then(() => (answered = true));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(answered).toBe(false);
      await pg.query(
        `DELETE FROM "${cluster.schema}".passkeys WHERE id IN (SELECT passkey_id FROM "${cluster.schema}".passkeys_user_lnk WHERE user_id = $1)`,
        [memberId],
      );
      await pg.query('COMMIT');
      return pending;
    });
    // Refused as a sign-in with a passkey the site no longer has, with no token; re-read: no live session at all.
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(400);
    expect(signedIn.body.jwt).toBeUndefined();
    expect(signedIn.body.error?.message).toBe(passkeyMessages.unknownPasskey);
    expect(await liveSids()).toEqual([]);
  });

  it('passkey sign-ins every 25 ms around a password change (which removes the new passkey): none outlives it', async () => {
    let won = 0;
    for (const [round, startMs] of [0, 60, 120, 180].entries()) {
      const { member, signIn, liveSids } = await memberWithNewPasskey(`passkeyrace${round + 2}`);
      const change = call<AuthResponse>(a, 'POST', '/api/auth/change-password', {
        token: member.jwt,
        body: { currentPassword: member.password, password: 'passkeyrace-New-Pass-2', passwordConfirmation: 'passkeyrace-New-Pass-2' },
      });
      const signIns = Array.from({ length: 8 }, async (_, i) => {
        await new Promise((resolve) => setTimeout(resolve, startMs + i * 25));
        return signIn(i % 2 ? b : a);
      });
      const changed = await change;
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      const answers = await Promise.all(signIns);
      for (const answer of answers) {
        if (answer.status === 200) {
          won += 1;
          expect(await works(answer.body.jwt!)).toBe(401);
        } else {
          // Refused in the passkey's own words (gone, or its counter already moved), never a bare 401.
          expect(answer.status, JSON.stringify(answer.body)).toBe(400);
        }
      }
      // Re-read: the only live session is the one change-password answered, and the passkey is gone.
      expect(await liveSids()).toEqual([sidOf(changed.body.jwt)]);
      expect((await call<{ data: unknown[] }>(a, 'GET', '/api/passkeys', { token: changed.body.jwt })).body.data).toEqual([]);
    }
    console.log(`[passkeys-cluster] passkey sign-ins around a password change: ${won} answered before it, none outlived it`);
  }, 120_000);
});
