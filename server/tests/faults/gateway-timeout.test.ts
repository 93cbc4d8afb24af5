import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { missingServices, startCluster, withPostgres, type Cluster, type Instance } from '../helpers/instances';
import { monthlyPriceId, request } from '../helpers/strapi';
import { startStripeDouble, type AfterWorkFault, type StripeDouble } from '../helpers/stripe-double';
import type { AuthResponse } from '../helpers/types';

/**
 * The payment gateway times out or fails in the middle of a purchase (docs/payments.md, "When
 * Stripe is slow or fails"). One server process in Stripe mode, its real SDK pointed at the Stripe
 * double, which carries out POST /v1/subscriptions and then answers late, with a 500, or not at all.
 * The member must get the payment-service message quickly (not after the SDK's 80 s), and a retry
 * must find the subscription the failed call made: one subscription at the gateway, one record,
 * one charge, nothing left that blocks the next purchase.
 */

const missing = await missingServices();
if (missing) console.warn(`[gateway-timeout.test] skipped: ${missing}`);

/** docs/payments.md; the SPA shows it as 'Failed to initiate subscription: {message}' (SPEC §8). */
const PAYMENT_SERVICE_FAILED = 'The payment service could not complete the request. Please try again later.';
const TIMEOUT_MS = 1500;
/** The SDK's attempts for one call (its default 2 retries, which the server keeps, plus the first). */
const ATTEMPTS = 3;

let double: StripeDouble;
let cluster: Cluster;
let server: Instance;
let priceId: string;
let tmpDir: string;

interface Member {
  id: number;
  jwt: string;
  email: string;
}
type Answer = { error?: { message?: string }; subscriptionId?: string; clientSecret?: string; status?: string; id?: string };

async function register(): Promise<Member> {
  const username = `gw${crypto.randomBytes(4).toString('hex')}`;
  const email = `${username}@example.com`;
  const res = await request<AuthResponse>(server.baseUrl, 'POST', '/api/auth/local/register', {
    body: { username, email, password: `${username}-Pass-1` },
  });
  expect(res.status).toBe(200);
  return { id: res.body.user.id, jwt: res.body.jwt, email };
}

/** Longest a purchase may take while Stripe misbehaves: every SDK attempt timing out, plus slack. */
const PURCHASE_BOUND_MS = ATTEMPTS * TIMEOUT_MS + 5_000;

async function purchase(member: Member): Promise<{ status: number; body: Answer }> {
  const res = await fetch(`${server.baseUrl}/api/subscriptions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${member.jwt}` },
    body: JSON.stringify({ priceId }),
    signal: AbortSignal.timeout(PURCHASE_BOUND_MS),
  }).catch((error: Error) => {
    throw new Error(`POST /api/subscriptions gave no answer within ${PURCHASE_BOUND_MS} ms (${error.message})`);
  });
  return { status: res.status, body: (await res.json()) as Answer };
}

const customerOf = (member: Member) =>
  withPostgres(async (client) => {
    const { rows } = await client.query(`SELECT stripe_customer_id FROM "${cluster.schema}".up_users WHERE id = $1`, [member.id]);
    return (rows[0]?.stripe_customer_id as string | null) ?? null;
  });

/** The member's subscription records in the database. */
const recordsOf = (member: Member) =>
  withPostgres(async (client) => {
    const { rows } = await client.query(
      `SELECT s.stripe_subscription_id, s.status FROM "${cluster.schema}".subscriptions s
         JOIN "${cluster.schema}".subscriptions_user_lnk l ON l.subscription_id = s.id WHERE l.user_id = $1 ORDER BY s.id`,
      [member.id],
    );
    return rows as { stripe_subscription_id: string; status: string }[];
  });

/** Subscriptions the double holds for the member's customer(s), i.e. what Stripe would bill. */
const atGateway = (customer: string | null) => [...double.subscriptions.values()].filter((sub) => sub.customer === customer);

describe.skipIf(missing !== null)('the payment gateway times out or fails mid-purchase (Stripe mode, one instance on PostgreSQL)', () => {
  beforeAll(async () => {
    double = await startStripeDouble();
    // Its own uploads directory, so the worktree's is not marked as this throwaway database's.
    tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-gateway-'));
    fs.mkdirSync(path.join(tmpDir, 'public', 'uploads'), { recursive: true });
    cluster = await startCluster(1, {
      PUBLIC_DIR: path.join(tmpDir, 'public'),
      PAYMENTS_MODE: 'stripe',
      ...double.env('whsec_faults'),
      STRIPE_TIMEOUT_MS: String(TIMEOUT_MS),
      AUTH_RATELIMIT_MAX: '1000',
      AUTH_ADDRESS_LIMIT_PER_MINUTE: '1000',
      AUTH_ADDRESS_LIMIT_PER_DAY: '10000',
    });
    [server] = cluster.instances;
    priceId = await monthlyPriceId(server.baseUrl);
  }, 240_000);

  afterAll(async () => {
    await cluster?.stop();
    await double?.stop();
    if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
  }, 60_000);

  const faults: { name: string; fault: AfterWorkFault }[] = [
    { name: 'answers too late (past STRIPE_TIMEOUT_MS)', fault: { kind: 'slow', ms: 30_000 } },
    { name: 'answers 500 after creating the subscription', fault: { kind: 'error500' } },
    { name: 'resets the connection after creating the subscription', fault: { kind: 'reset' } },
  ];

  for (const { name, fault } of faults) {
    it(`when Stripe ${name}: the member gets the payment-service message; a retry makes no second subscription and strands nothing`, async () => {
      const member = await register();
      // Every attempt of the SDK's call misbehaves, however many retries it makes.
      double.failAfterWork(fault, 10, { method: 'POST', pathPrefix: '/v1/subscriptions' });
      const started = Date.now();
      const failed = await purchase(member);
      const waited = Date.now() - started;
      double.clearFailure();
      expect(failed.status, JSON.stringify(failed.body)).toBe(502);
      expect(failed.body.error?.message).toBe(PAYMENT_SERVICE_FAILED);
      // Bounded by the server's gateway timeout, not the SDK's 80 s per attempt.
      expect(waited).toBeLessThan(PURCHASE_BOUND_MS);

      const customer = await customerOf(member);
      expect(customer).not.toBeNull();
      const madeByFailedCall = atGateway(customer).length;
      // The gateway did the work although the member was told it failed.
      expect(madeByFailedCall).toBeGreaterThanOrEqual(1);
      expect(await recordsOf(member)).toEqual([]);

      const retried = await purchase(member);
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      const subs = atGateway(customer);
      // The retry answered the subscription the failed call made: one at the gateway, one record.
      expect(subs.map((sub) => sub.id)).toEqual([retried.body.subscriptionId]);
      expect(await recordsOf(member)).toEqual([{ stripe_subscription_id: retried.body.subscriptionId, status: 'incomplete' }]);

      // The member pays (Stripe.js in the browser), then verifies: one charge, active.
      const paid = double.subscriptions.get(retried.body.subscriptionId!)!;
      paid.status = 'active';
      const verified = await request<Answer>(server.baseUrl, 'GET', `/api/subscriptions/${paid.id}/verify`, { token: member.jwt });
      expect(verified.body.status).toBe('active');
      expect(atGateway(customer).filter((sub) => sub.status === 'active')).toHaveLength(1);

      // Nothing stranded: another purchase is refused for the right reason and creates nothing.
      const again = await purchase(member);
      expect(again.status).toBe(400);
      expect(again.body.error?.message).toBe('You already have an active subscription.');
      expect(atGateway(customer)).toHaveLength(1);
      expect([...double.customers.values()].filter((entry) => entry.email === member.email)).toHaveLength(1);
      console.info(
        `[gateway-timeout] ${fault.kind}: 502 after ${waited} ms; subscriptions made by the failed call: ${madeByFailedCall}; ` +
          `after the retry: ${atGateway(customer).length} at the gateway, ${(await recordsOf(member)).length} recorded, 1 charged`,
      );
    });
  }

  it('a retry after a failure before any work (Stripe down) also leaves exactly one payable attempt', async () => {
    const member = await register();
    double.failNext(500, { type: 'api_error', message: 'down' }, 10, { method: 'POST', pathPrefix: '/v1/subscriptions' });
    const failed = await purchase(member);
    double.clearFailure();
    expect(failed.status).toBe(502);
    expect(failed.body.error?.message).toBe(PAYMENT_SERVICE_FAILED);
    const customer = await customerOf(member);
    expect(atGateway(customer)).toHaveLength(0);
    const retried = await purchase(member);
    expect(retried.status).toBe(200);
    expect(atGateway(customer).map((sub) => sub.id)).toEqual([retried.body.subscriptionId]);
  });
});
