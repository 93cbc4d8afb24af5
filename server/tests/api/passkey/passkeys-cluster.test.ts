import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { missingServices, startCluster, type Cluster, type Instance } from '../../helpers/instances';
import type { ApiError, AuthResponse } from '../../helpers/types';
import { softwarePasskey } from '../../helpers/software-authenticator';
import { ownRedisMissing, startOwnRedis, type OwnRedis } from '../../helpers/own-services';
import { passkeyMessages } from '../../../src/contract/passkeys';

/**
 * Passkey challenges across instances (issue 23): a challenge issued by one server process is
 * answered on another (the table is shared), and used once in the whole cluster.
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
    const registered = await call<AuthResponse>(a, 'POST', '/api/auth/local/register', {
      body: { username: 'clusterkey', email: 'clusterkey@example.com', password: 'clusterkey-Pass-1' },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const jwt = registered.body.jwt;
    const passkey = softwarePasskey({ origin: ORIGIN, rpId: RP_ID });

    const options = await call<{ challenge: string }>(a, 'POST', '/api/passkeys/registration-options', { token: jwt });
    expect(options.status).toBe(200);
    const saved = await call(b, 'POST', '/api/passkeys', { token: jwt, body: { credential: passkey.register(options.body) } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);

    const challenge = await call<{ challenge: string }>(b, 'POST', '/api/auth/passkey/options');
    const answer = passkey.authenticate(challenge.body);
    const signedIn = await call<AuthResponse>(a, 'POST', '/api/auth/passkey', { body: { credential: answer } });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user.id).toBe(registered.body.user.id);
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
});
