import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { missingServices, startCluster, type Cluster, type Instance } from '../helpers/instances';
import type { Member } from '../helpers/members';
import { monthlyPriceId, request } from '../helpers/strapi';
import { startStripeDouble, type AfterWorkFault, type StripeDouble } from '../helpers/stripe-double';

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

type Answer = { error?: { message?: string }; subscriptionId?: string; clientSecret?: string; status?: string; id?: string };

const register = () => cluster.register(server, `gw${crypto.randomBytes(4).toString('hex')}`);

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

const customerOf = async (member: Member) =>
  (await cluster.sql<{ stripe_customer_id: string | null }>('SELECT stripe_customer_id FROM up_users WHERE id = $1', [member.id]))[0]
    ?.stripe_customer_id ?? null;

/** The member's subscription records in the database. */
const recordsOf = (member: Member) =>
  cluster.sql<{ stripe_subscription_id: string; status: string }>(
    `SELECT s.stripe_subscription_id, s.status FROM subscriptions s
       JOIN subscriptions_user_lnk l ON l.subscription_id = s.id WHERE l.user_id = $1 ORDER BY s.id`,
    [member.id],
  );

/** Subscriptions the double holds for the member's customer(s), i.e. what Stripe would bill. */
const atGateway = (customer: string | null) => [...double.subscriptions.values()].filter((sub) => sub.customer === customer);

describe.skipIf(missing !== null)('the payment gateway times out or fails mid-purchase (Stripe mode, one instance on PostgreSQL)', () => {
  beforeAll(async () => {
    double = await startStripeDouble();
    // Sign-ups come from fresh client addresses (cluster.register): the auth limits stay out of the way.
    cluster = await startCluster(1, { PAYMENTS_MODE: 'stripe', ...double.env('whsec_faults'), STRIPE_TIMEOUT_MS: String(TIMEOUT_MS) });
    [server] = cluster.instances;
    priceId = await monthlyPriceId(server.baseUrl);
  }, 240_000);

  afterAll(async () => {
    await cluster?.stop();
    await double?.stop();
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
