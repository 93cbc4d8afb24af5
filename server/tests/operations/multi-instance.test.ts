import http from 'node:http';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { freshClient, missingServices, startCluster, withPostgres, type Cluster, type Instance } from '../helpers/instances';
import { requestFrom } from '../helpers/strapi';
import type { ApiError, AuthResponse } from '../helpers/types';

/**
 * Two server processes on one PostgreSQL database and one Redis, requests alternating between them
 * from distinct client addresses (127.0.0.x): what one instance counts or revokes, the other sees.
 */

const missing = await missingServices();
if (missing) console.warn(`[multi-instance.test] skipped: ${missing}`);

let cluster: Cluster;
let a: Instance;
let b: Instance;

type Answer = AuthResponse & ApiError;
const call = <T = Answer>(
  instance: Instance,
  from: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string } = {},
) => requestFrom<T>(from, instance.baseUrl, method, path, options);

const register = (instance: Instance, username: string) => cluster.register(instance, username);

describe.skipIf(missing !== null)('several instances on one PostgreSQL and one Redis', () => {
  beforeAll(async () => {
    cluster = await startCluster(2);
    [a, b] = cluster.instances;
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  it('both report ready, with the database and Redis checked', async () => {
    for (const instance of [a, b]) {
      const res = await fetch(`${instance.baseUrl}/api/health/ready`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok', database: 'ok', redis: 'ok' });
    }
  });

  it('one client gets the log-in limit once, not once per instance', async () => {
    const from = freshClient();
    const statuses: number[] = [];
    for (let i = 0; i < 14; i += 1) {
      const res = await call(i % 2 ? b : a, from, 'POST', '/api/auth/local', {
        body: { identifier: `nobody${i}@example.com`, password: 'x' },
      });
      statuses.push(res.status);
    }
    // AUTH_RATELIMIT_MAX (10) per route and client address, whichever instance answers.
    expect(statuses).toEqual([...Array(10).fill(400), ...Array(4).fill(429)]);
    // Another address is not limited.
    expect(
      (await call(a, freshClient(), 'POST', '/api/auth/local', { body: { identifier: 'nobody@example.com', password: 'x' } })).status,
    ).toBe(400);
  });

  it('failed log-ins from many addresses on both instances lock the account for all of them', async () => {
    const victim = await register(a, 'multi_victim');
    for (let i = 0; i < 10; i += 1) {
      const res = await call(i % 2 ? b : a, freshClient(), 'POST', '/api/auth/local', {
        body: { identifier: victim.email, password: `wrong-${i}` },
      });
      expect(res.status).toBe(400);
    }
    for (const instance of [a, b]) {
      const res = await call(instance, freshClient(), 'POST', '/api/auth/local', {
        body: { identifier: victim.email, password: victim.password },
      });
      expect(res.status).toBe(429);
      expect(res.body.error.message).toBe('Too many failed log-in attempts. Try again in 15 minutes or reset your password.');
      expect(res.body.jwt).toBeUndefined();
    }
  });

  it('a session works on both instances, and its revocation on one holds on the other', async () => {
    const member = await register(a, 'multi_sessions');
    const onB = await call<{ id: number }>(b, freshClient(), 'GET', '/api/users/me', { token: member.jwt });
    expect(onB.status).toBe(200);
    expect(onB.body.id).toBe(member.id);

    const changed = await call(b, freshClient(), 'POST', '/api/auth/change-password', {
      token: member.jwt,
      body: { currentPassword: member.password, password: 'Changed-Pass-2', passwordConfirmation: 'Changed-Pass-2' },
    });
    expect(changed.status).toBe(200);
    expect((await call(a, freshClient(), 'GET', '/api/users/me', { token: member.jwt })).status).toBe(401);
    const fresh = changed.body.jwt;
    expect((await call<{ id: number }>(a, freshClient(), 'GET', '/api/users/me', { token: fresh })).body.id).toBe(member.id);

    expect((await call(a, freshClient(), 'POST', '/api/auth/logout-all', { token: fresh })).status).toBe(200);
    expect((await call(b, freshClient(), 'GET', '/api/users/me', { token: fresh })).status).toBe(401);
  });

  describe('one charge per member', () => {
    const ALREADY = 'You already have an active subscription.';
    const CANCELED_PAYMENT = 'This payment was canceled. Please start again.';
    const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };
    let plans: { monthly: string; yearly: string };
    /** The i-th request goes to instance a, b, a, b, ... */
    const on = (i: number) => (i % 2 ? b : a);

    /** Rows read straight from PostgreSQL, not through either server. */
    const query = <T>(sql: string, values: unknown[] = []) =>
      withPostgres(async (db) => {
        await db.query(`SET search_path TO "${cluster.schema}"`);
        return (await db.query(sql, values)).rows as T[];
      });
    const subscriptionsOf = (userId: number) =>
      query<{ id: number; status: string; stripe_subscription_id: string }>(
        `SELECT s.id, s.status, s.stripe_subscription_id
           FROM subscriptions s JOIN subscriptions_user_lnk l ON l.subscription_id = s.id
          WHERE l.user_id = $1 ORDER BY s.id`,
        [userId],
      );
    /** The sandbox's paid payment intents of these subscriptions: what the member was charged. */
    const chargesFor = async (subscriptionIds: string[]) =>
      (await query<{ value: string }>("SELECT value FROM strapi_core_store_settings WHERE key LIKE 'core_payments_sandbox_pi:%'"))
        .map((row) => JSON.parse(row.value) as { subscriptionId: string; status: string })
        .filter((pi) => subscriptionIds.includes(pi.subscriptionId) && pi.status === 'succeeded');

    beforeAll(async () => {
      const res = await call<{ data: { stripe_price_id: string; name: string }[] }>(a, freshClient(), 'GET', '/api/subscription-plans');
      const price = (name: string) => res.body.data.find((plan) => plan.name === name)!.stripe_price_id;
      plans = { monthly: price('Carnivo Monthly'), yearly: price('Carnivo Yearly') };
    });

    it('purchases racing across both processes leave one payable attempt, and paying every answer charges once', async () => {
      const member = await register(b, 'mi_racer');
      const prices = Array.from({ length: 16 }, (_, i) => (i % 4 === 3 ? plans.yearly : plans.monthly));
      const answers = await Promise.all(
        prices.map((priceId, i) =>
          call<{ clientSecret: string; subscriptionId: string } & ApiError>(on(i), freshClient(), 'POST', '/api/subscriptions', {
            token: member.jwt,
            body: { priceId },
          }),
        ),
      );
      for (const answer of answers) {
        if (answer.status !== 200) expect([answer.status, answer.body.error?.message]).toEqual([400, ALREADY]);
      }
      const secrets = [...new Set(answers.filter((answer) => answer.status === 200).map((answer) => answer.body.clientSecret))];
      expect(secrets.length).toBeGreaterThan(0);

      // One customer at the gateway, and one attempt that can still be paid.
      const users = await query<{ stripe_customer_id: string | null }>('SELECT stripe_customer_id FROM up_users WHERE id = $1', [
        member.id,
      ]);
      const customers = await query<{ key: string }>(
        "SELECT key FROM strapi_core_store_settings WHERE key LIKE 'core_payments_sandbox_cus:%' AND value LIKE $1",
        ['%mi_racer@example.com%'],
      );
      expect(customers.map((customer) => customer.key)).toEqual([`core_payments_sandbox_cus:${users[0].stripe_customer_id}`]);
      const before = await subscriptionsOf(member.id);
      expect(before.filter((row) => row.status === 'incomplete')).toHaveLength(1);
      expect(before.filter((row) => row.status !== 'incomplete').every((row) => row.status === 'incomplete_expired')).toBe(true);

      // The member pays every secret they were given, at once, on both processes.
      const paid = await Promise.all(
        secrets.map((clientSecret, i) =>
          call<ApiError>(on(i + 1), freshClient(), 'POST', '/api/payments/sandbox/confirm', { body: { clientSecret, ...CARD } }),
        ),
      );
      expect(paid.filter((res) => res.status === 200)).toHaveLength(1);
      for (const refused of paid.filter((res) => res.status !== 200)) {
        expect([refused.status, refused.body.error?.message]).toEqual([400, CANCELED_PAYMENT]);
      }

      const after = await subscriptionsOf(member.id);
      expect(after.filter((row) => row.status === 'active')).toHaveLength(1);
      expect(after.filter((row) => row.status === 'active')[0].id).toBe(before.find((row) => row.status === 'incomplete')!.id);
      expect(await chargesFor(after.map((row) => row.stripe_subscription_id))).toHaveLength(1);

      // Active now: both processes refuse another purchase.
      const more = await Promise.all(
        [plans.monthly, plans.yearly].map((priceId, i) =>
          call<ApiError>(on(i), freshClient(), 'POST', '/api/subscriptions', { token: member.jwt, body: { priceId } }),
        ),
      );
      expect(more.map((res) => [res.status, res.body.error?.message])).toEqual([
        [400, ALREADY],
        [400, ALREADY],
      ]);
      expect(await subscriptionsOf(member.id)).toHaveLength(after.length);
    });

    it('a purchase on one process while the attempt is paid on the other never leaves two payable attempts', async () => {
      const member = await register(a, 'mi_payer');
      const first = await call<{ clientSecret: string }>(on(0), freshClient(), 'POST', '/api/subscriptions', {
        token: member.jwt,
        body: { priceId: plans.monthly },
      });
      expect(first.status).toBe(200);
      const [payment, purchase] = await Promise.all([
        call<ApiError>(on(1), freshClient(), 'POST', '/api/payments/sandbox/confirm', {
          body: { clientSecret: first.body.clientSecret, ...CARD },
        }),
        call<{ clientSecret: string } & ApiError>(on(0), freshClient(), 'POST', '/api/subscriptions', {
          token: member.jwt,
          body: { priceId: plans.monthly },
        }),
      ]);
      const rows = await subscriptionsOf(member.id);
      if (payment.status === 200) {
        expect([purchase.status, purchase.body.error?.message]).toEqual([400, ALREADY]);
        expect(rows.map((row) => row.status)).toEqual(['active']);
      } else {
        expect([payment.status, payment.body.error?.message]).toEqual([400, CANCELED_PAYMENT]);
        expect(purchase.status).toBe(200);
        expect(rows.map((row) => row.status)).toEqual(['incomplete_expired', 'incomplete']);
      }
      expect(await chargesFor(rows.map((row) => row.stripe_subscription_id))).toHaveLength(payment.status === 200 ? 1 : 0);
    });
  });

  // Last: it stops instance a.
  it('a stopped instance finishes the request in flight before it exits', async () => {
    const body = JSON.stringify({ identifier: 'graceful@example.com', password: 'whatever-1' });
    const url = new URL('/api/auth/local', a.baseUrl);
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          localAddress: freshClient(),
          headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      // Half the body now, SIGTERM while the server waits for the rest, then the rest.
      req.write(body.slice(0, 10));
      setTimeout(() => {
        a.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 700);
      }, 300);
    });
    const { status, text } = await answer;
    expect(status).toBe(400);
    expect(JSON.parse(text).error.message).toBe('Invalid identifier or password');
    expect(await a.exited).toBe(0);
    // The other instance keeps serving.
    expect((await fetch(`${b.baseUrl}/api/health/ready`)).status).toBe(200);
  });
});
