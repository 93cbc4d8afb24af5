import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { freshClient, missingServices, startCluster, type Cluster, type Instance } from '../helpers/instances';
import { requestFrom } from '../helpers/strapi';
import type { ApiError } from '../helpers/types';

/**
 * The admin panel's log-in throttle and the per-address limit of its auth routes on two server
 * processes (one PostgreSQL database, one Redis): what one instance counts, the other enforces.
 * Locks are short here (LOGIN_LOCK_SEC) so the test also sees one end.
 */

const missing = await missingServices();
if (missing) console.warn(`[login-throttle-cluster.test] skipped: ${missing}`);

const LOCK_SEC = 10;
let cluster: Cluster;
let a: Instance;
let b: Instance;

type Answer = Omit<ApiError, 'data'> & { data?: { token?: string; user?: { id: number; email: string } } };
const post = (instance: Instance, from: string, path: string, body: unknown) =>
  requestFrom<Answer>(from, instance.baseUrl, 'POST', path, { body });

describe.skipIf(missing !== null)('the admin panel log-in on two instances', () => {
  const admin = { firstname: 'Ad', lastname: 'Min', email: 'cluster.admin@carnivo.example', password: 'Cluster-Passw0rd' };

  beforeAll(async () => {
    cluster = await startCluster(2, { LOGIN_LOCK_SEC: String(LOCK_SEC), LOGIN_MAX_LOCK_SEC: String(LOCK_SEC) });
    [a, b] = cluster.instances;
    // The first administrator, as a fresh install's admin panel creates it.
    const registered = await post(a, freshClient(), '/admin/register-admin', admin);
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  it('failures alternating between the instances lock the administrator on both; after the lock the right password works', async () => {
    for (let i = 0; i < 10; i += 1) {
      const res = await post(i % 2 ? b : a, freshClient(), '/admin/login', { email: admin.email, password: `Wrong-Passw0rd-${i}` });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('Invalid credentials');
    }
    let retryAfter = 0;
    for (const instance of [a, b]) {
      const res = await post(instance, freshClient(), '/admin/login', { email: admin.email, password: admin.password });
      expect(res.status).toBe(429);
      expect(res.body.error.message).toBe('Too many failed log-in attempts. Try again in 1 minute or reset your password.');
      expect(res.body.data?.token).toBeUndefined();
      expect(String(res.headers['set-cookie'] ?? '')).not.toContain('strapi_admin_refresh');
      retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(LOCK_SEC);
    }

    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 500));
    const back = await post(b, freshClient(), '/admin/login', { email: admin.email, password: admin.password });
    expect(back.status).toBe(200);
    const me = await requestFrom<{ data: { email: string } }>(freshClient(), a.baseUrl, 'GET', '/admin/users/me', {
      token: back.body.data!.token,
    });
    expect(me.body.data.email).toBe(admin.email);
  });

  it('an e-mail no administrator has is locked alike on both instances', async () => {
    const answers = [];
    for (let i = 0; i < 11; i += 1) {
      const res = await post(i % 2 ? b : a, freshClient(), '/admin/login', {
        email: i % 3 ? 'NO.ADMIN@carnivo.example' : 'no.admin@carnivo.example',
        password: `Wrong-${i}`,
      });
      answers.push(res.status);
    }
    expect(answers).toEqual([...Array(10).fill(400), 429]);
  });

  it("a member's e-mail and an e-mail no member has answer alike across the instances, the 11th included", async () => {
    const member = await cluster.register(a, 'cluster_member');
    const seen = (res: Awaited<ReturnType<typeof post>>) => [res.status, res.body.error?.message, res.headers['retry-after']];
    const known: ReturnType<typeof seen>[] = [];
    const unknown: ReturnType<typeof seen>[] = [];
    for (let i = 0; i < 11; i += 1) {
      known.push(seen(await post(i % 2 ? b : a, freshClient(), '/api/auth/local', { identifier: member.email, password: `wrong-${i}` })));
      unknown.push(
        seen(
          await post(i % 2 ? b : a, freshClient(), '/api/auth/local', { identifier: 'cluster_nobody@example.com', password: `wrong-${i}` }),
        ),
      );
    }
    // Alike: the same status and words, and a Retry-After on the same answers; its seconds count down while
    // the two requests are answered, so a busy machine may see them a second apart.
    const words = (answers: unknown[][]) => answers.map(([status, message, retryAfter]) => [status, message, retryAfter !== undefined]);
    expect(words(unknown)).toEqual(words(known));
    unknown.forEach(([, , retryAfter], i) => {
      if (retryAfter !== undefined) expect(Math.abs(Number(retryAfter) - Number(known[i][2]))).toBeLessThanOrEqual(1);
    });
    expect(known.map(([status]) => status)).toEqual([...Array(10).fill(400), 429]);
    const right = await post(b, freshClient(), '/api/auth/local', { identifier: member.email, password: member.password });
    expect(right.status).toBe(429);
    expect((right.body as { jwt?: string }).jwt).toBeUndefined();
  });

  it("one client gets the admin auth routes' per-address limit once, not once per instance", async () => {
    const from = freshClient();
    const statuses: number[] = [];
    for (let i = 0; i < 14; i += 1) {
      statuses.push((await post(i % 2 ? b : a, from, '/admin/login', { email: `nobody${i}@carnivo.example`, password: 'x' })).status);
    }
    // AUTH_RATELIMIT_MAX (10) per route and client address, whichever instance answers.
    expect(statuses).toEqual([...Array(10).fill(400), ...Array(4).fill(429)]);
    // The administrator, from another address, is not limited by it.
    const right = await post(a, freshClient(), '/admin/login', { email: admin.email, password: admin.password });
    expect(right.status).toBe(200);
    expect(right.body.data?.token).toEqual(expect.any(String));

    const forgot: number[] = [];
    const other = freshClient();
    for (let i = 0; i < 11; i += 1)
      forgot.push((await post(i % 2 ? b : a, other, '/admin/forgot-password', { email: `nobody${i}@carnivo.example` })).status);
    expect(forgot).toEqual([...Array(10).fill(204), 429]);
  });
});
