import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { missingServices, startCluster, withPostgres, type Cluster, type Instance } from '../helpers/instances';
import { requestFrom } from '../helpers/strapi';
import type { ApiError, AuthResponse } from '../helpers/types';
import { SIGNED_OUT_REASON, sessionMessages, type SessionsResponse } from '../../src/contract/sessions';

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
let nextHost = 2;
const client = () => `127.0.7.${nextHost++}`;

type Answer = Partial<AuthResponse> & Partial<ApiError> & Partial<SessionsResponse>;
const call = (instance: Instance, method: string, path: string, options: { body?: unknown; token?: string; agent?: string } = {}) =>
  requestFrom<Answer>(client(), instance.baseUrl, method, path, {
    ...options,
    headers: { 'User-Agent': options.agent ?? FIREFOX_LINUX },
  });
const sidOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')).sid as string;
const works = async (instance: Instance, token: string) => (await call(instance, 'GET', '/api/users/me', { token })).status;

async function register(instance: Instance, username: string) {
  const password = `${username}-Pass-1`;
  const res = await call(instance, 'POST', '/api/auth/local/register', { body: { username, email: `${username}@example.com`, password } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { jwt: res.body.jwt!, email: `${username}@example.com`, password };
}

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
    const row = await withPostgres((pg) =>
      pg.query(`SELECT revoked_at FROM "${cluster.schema}".member_sessions WHERE sid = $1`, [sidOf(victim.jwt)]),
    );
    expect(row.rows).toEqual([{ revoked_at: null }]);
    expect(await works(a, victim.jwt)).toBe(200);
    expect(await works(b, victim.jwt)).toBe(200);
  });
});
