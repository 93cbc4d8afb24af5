import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { requestFrom } from '../../helpers/strapi';
import { freshClient, missingServices, startCluster, type Cluster } from '../../helpers/instances';
import { boot, RAISED_LIMITS, type TestApp } from '../../helpers/app';
import { signUp } from '../../helpers/members';
import type { ApiError } from '../../helpers/types';
import { refundRefusals } from '../../../src/contract/subscriptions';

/**
 * One renewing subscription per member, whatever the order (docs/payments.md): random sequences
 * of purchase, payment, cancel, resume, the money-back refund and account deletion, some steps sent at once to different
 * instances, with the invariant checked after every step against what the gateway would bill:
 * at most one subscription that renews or can still be paid, and never two paid periods of one plan
 * over the same days (buying the plan set to cancel resumes it), at most one refund per member, and the
 * subscription it refunded ended. Seeded, so a failure reproduces.
 */

const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };
const RENEWING = ['active', 'trialing', 'past_due', 'unpaid', 'paused'];
/** Every refusal a member can meet on these routes (SPEC §5 and the README's Payments section). */
const REFUSALS = [
  'You already have an active subscription.',
  'You have no active subscription to cancel.',
  'There is no cancelled subscription to resume.',
  'This payment was canceled. Please start again.',
  ...Object.values(refundRefusals),
];

/** mulberry32: a small seeded PRNG. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One database as the test reads it, straight from its tables (not through a server). */
interface Rows {
  sandbox(prefix: 'sub' | 'pi'): Promise<Record<string, unknown>[]>;
  records(userId: number): Promise<{ status: string; cancel_at_period_end: boolean | number | null; stripe_subscription_id: string }[]>;
}

interface World {
  baseUrls: string[];
  rows: Rows;
  prices: { monthly: string; yearly: string };
}

type Op =
  | { kind: 'buy'; price: 'monthly' | 'yearly' }
  | { kind: 'pay'; pick: number }
  | { kind: 'cancel' }
  | { kind: 'resume' }
  | { kind: 'refund' }
  | { kind: 'delete' };

const describeOp = (op: Op) => (op.kind === 'buy' ? `buy ${op.price}` : op.kind === 'pay' ? `pay #${op.pick}` : op.kind);

/** What the gateway would bill for the member: subscriptions that renew, and attempts that can still be paid. */
async function billable(world: World, subscriptionIds: Set<string>) {
  const subs = (await world.rows.sandbox('sub')).filter((sub) => subscriptionIds.has(sub.id as string));
  const intents = new Map((await world.rows.sandbox('pi')).map((pi) => [pi.id as string, pi.status as string]));
  const renewing = subs.filter((sub) => RENEWING.includes(sub.status as string) && !sub.cancelAtPeriodEnd);
  const payable = subs.filter(
    (sub) => sub.status === 'incomplete' && intents.get(sub.paymentIntentId as string) === 'requires_payment_method',
  );
  return { renewing, payable, subs };
}

const refundedSub = (sub: Record<string, unknown>) => Object.keys((sub.refunds as Record<string, string> | undefined) ?? {}).length > 0;

/** Two paid periods of one plan over the same days (one plan charged twice), described; null when there are none. */
function chargedTwice(subs: Record<string, unknown>[]): string | null {
  // A refunded subscription's one period (the clock does not move here, so none renewed) was given back: not a charge.
  const paid = subs.filter(
    (sub) => typeof sub.currentPeriodStart === 'string' && typeof sub.currentPeriodEnd === 'string' && !refundedSub(sub),
  );
  for (const [i, a] of paid.entries()) {
    for (const b of paid.slice(i + 1)) {
      const overlap =
        Date.parse(a.currentPeriodStart as string) < Date.parse(b.currentPeriodEnd as string) &&
        Date.parse(b.currentPeriodStart as string) < Date.parse(a.currentPeriodEnd as string);
      if (a.priceId === b.priceId && overlap) return `${a.id as string} and ${b.id as string} both paid ${a.priceId as string}`;
    }
  }
  return null;
}

/** An answer in the trail: its refusal, or that a purchase resumed the plan set to cancel (no secret). */
const answerNote = (body: ApiError & { clientSecret?: string | null }) =>
  body.error?.message ?? (body.clientSecret === null ? 'resumed' : '');

async function runSequence(world: World, seed: number, steps: number): Promise<string[]> {
  const random = prng(seed);
  const trail: string[] = [];
  const username = `inv_${seed}`;
  const { jwt, id: userId } = await signUp(world.baseUrls[0], username, { from: freshClient() });
  const secrets: string[] = [];
  const subscriptionIds = new Set<string>();
  let deleted = false;
  let turn = 0;

  // Mostly the other plan than the last one bought: buying the plan held and set to cancel only resumes it, and
  // the orders that matter (a paid plan set to cancel, another bought and paid, then resume) need the other one.
  let lastBought: 'monthly' | 'yearly' = 'yearly';
  const pickOp = (): Op => {
    const roll = random();
    if (roll < 0.3) {
      const price = random() < 0.6 ? (lastBought === 'monthly' ? 'yearly' : 'monthly') : lastBought;
      lastBought = price;
      return { kind: 'buy', price };
    }
    if (roll < 0.55) return { kind: 'pay', pick: Math.floor(random() * 1000) };
    if (roll < 0.72) return { kind: 'cancel' };
    if (roll < 0.94) return { kind: 'resume' };
    if (roll < 0.97) return { kind: 'refund' };
    return { kind: 'delete' };
  };

  const perform = async (op: Op) => {
    const baseUrl = world.baseUrls[turn++ % world.baseUrls.length];
    const send = <T>(method: string, path: string, body?: unknown, token: string | undefined = jwt) =>
      requestFrom<T & ApiError>(freshClient(), baseUrl, method, path, { body, token });
    switch (op.kind) {
      case 'buy': {
        const res = await send<{ clientSecret: string | null; subscriptionId: string }>('POST', '/api/subscriptions', {
          priceId: world.prices[op.price],
        });
        if (res.status === 200) {
          // No secret: the plan set to cancel was resumed, with nothing to pay.
          if (res.body.clientSecret !== null) secrets.push(res.body.clientSecret);
          subscriptionIds.add(res.body.subscriptionId);
        }
        return res;
      }
      case 'pay': {
        if (secrets.length === 0) return null;
        // Mostly the newest secret, sometimes an older one kept in another tab.
        const secret = op.pick % 3 === 0 ? secrets[op.pick % secrets.length] : secrets[secrets.length - 1];
        return send('POST', '/api/payments/sandbox/confirm', { clientSecret: secret, ...CARD }, undefined);
      }
      case 'cancel':
        return send('POST', '/api/subscriptions/cancel');
      case 'resume':
        return send('POST', '/api/subscriptions/resume');
      case 'refund':
        return send('POST', '/api/subscriptions/refund');
      case 'delete':
        return send('DELETE', '/api/users-permissions/users/delete-account');
    }
  };

  for (let step = 0; step < steps && !deleted; step += 1) {
    // About a third of the steps send two or three calls at once, spread over the instances.
    const width = random() < 0.35 ? 2 + Math.floor(random() * 2) : 1;
    const ops = Array.from({ length: width }, pickOp);
    const answers = await Promise.all(ops.map(perform));
    trail.push(
      ops
        .map((op, i) => `${describeOp(op)} → ${answers[i] ? `${answers[i]!.status} ${answerNote(answers[i]!.body)}`.trim() : 'skipped'}`)
        .join(' | '),
    );
    const context = `seed ${seed}, after step ${step}:\n  ${trail.join('\n  ')}`;
    for (const [i, answer] of answers.entries()) {
      if (!answer || answer.status < 300) continue;
      if (ops[i].kind === 'delete' || deleted) continue;
      // Racing a deletion, the token is gone (401) or the account is by the time the lock is had (404).
      if (ops.some((op) => op.kind === 'delete') && (answer.status === 401 || answer.status === 404)) continue;
      expect(REFUSALS, context).toContain(answer.body.error?.message);
    }
    if (ops.some((op, i) => op.kind === 'delete' && answers[i]?.status === 200)) deleted = true;

    const gateway = await billable(world, subscriptionIds);
    expect(gateway.renewing.length + gateway.payable.length, context).toBeLessThanOrEqual(1);
    expect(chargedTwice(gateway.subs), context).toBeNull();
    // The money-back guarantee: one refund per member at most, and the subscription it refunded has ended.
    const refunded = gateway.subs.filter(refundedSub);
    expect(refunded.length, context).toBeLessThanOrEqual(1);
    for (const sub of refunded) expect(sub.status, context).toBe('canceled');
    if (deleted) {
      expect(gateway.renewing.length + gateway.payable.length, context).toBe(0);
      expect(await world.rows.records(userId), context).toEqual([]);
      continue;
    }
    // The member's records say what the gateway says.
    const records = await world.rows.records(userId);
    const statusAt = new Map(gateway.subs.map((sub) => [sub.id as string, `${sub.status} ${Boolean(sub.cancelAtPeriodEnd)}`]));
    for (const record of records) {
      expect(`${record.status} ${Boolean(record.cancel_at_period_end)}`, context).toBe(statusAt.get(record.stripe_subscription_id));
    }
  }
  return trail;
}

/** The order that billed a member twice: pay A, cancel it, start B, resume A, then pay B. */
async function resumeAfterNewPurchase(world: World) {
  const [a, b] = [world.baseUrls[0], world.baseUrls[world.baseUrls.length - 1]];
  const username = `inv_resume_${Date.now() % 100000}`;
  const member = await signUp(a, username, { from: freshClient() });
  const token = member.jwt;
  const call = <T>(baseUrl: string, method: string, path: string, body?: unknown, auth: string | undefined = token) =>
    requestFrom<T & ApiError>(freshClient(), baseUrl, method, path, { body, token: auth });

  const first = await call<{ clientSecret: string; subscriptionId: string }>(a, 'POST', '/api/subscriptions', {
    priceId: world.prices.monthly,
  });
  expect(
    (await call(b, 'POST', '/api/payments/sandbox/confirm', { clientSecret: first.body.clientSecret, ...CARD }, undefined)).status,
  ).toBe(200);
  expect((await call(a, 'POST', '/api/subscriptions/cancel')).status).toBe(200);
  const second = await call<{ clientSecret: string; subscriptionId: string }>(b, 'POST', '/api/subscriptions', {
    priceId: world.prices.yearly,
  });
  expect(second.status).toBe(200);

  // Resuming the first (another tab) ends the unpaid second one, which can then no longer be paid.
  const resumed = await call<{ status: string; cancel_at_period_end: boolean }>(a, 'POST', '/api/subscriptions/resume');
  expect([resumed.status, resumed.body.cancel_at_period_end]).toEqual([200, false]);
  const paid = await call(b, 'POST', '/api/payments/sandbox/confirm', { clientSecret: second.body.clientSecret, ...CARD }, undefined);
  expect([paid.status, paid.body.error?.message]).toEqual([400, 'This payment was canceled. Please start again.']);

  const gateway = await billable(world, new Set([first.body.subscriptionId, second.body.subscriptionId]));
  expect(gateway.renewing.map((sub) => sub.id)).toEqual([first.body.subscriptionId]);
  expect(gateway.payable).toEqual([]);
  const records = await world.rows.records(member.id);
  expect(records.map((r) => [r.stripe_subscription_id, r.status]).sort()).toEqual(
    [
      [first.body.subscriptionId, 'active'],
      [second.body.subscriptionId, 'incomplete_expired'],
    ].sort(),
  );

  // The other order: the second one paid first, then resuming the first is refused.
  const other = await signUp(a, `${username}_b`, { from: freshClient() });
  const otherCall = <T>(baseUrl: string, method: string, path: string, body?: unknown, auth: string | undefined = other.jwt) =>
    requestFrom<T & ApiError>(freshClient(), baseUrl, method, path, { body, token: auth });
  const x = await otherCall<{ clientSecret: string; subscriptionId: string }>(a, 'POST', '/api/subscriptions', {
    priceId: world.prices.monthly,
  });
  await otherCall(b, 'POST', '/api/payments/sandbox/confirm', { clientSecret: x.body.clientSecret, ...CARD }, undefined);
  await otherCall(a, 'POST', '/api/subscriptions/cancel');
  const y = await otherCall<{ clientSecret: string; subscriptionId: string }>(b, 'POST', '/api/subscriptions', {
    priceId: world.prices.yearly,
  });
  expect(
    (await otherCall(a, 'POST', '/api/payments/sandbox/confirm', { clientSecret: y.body.clientSecret, ...CARD }, undefined)).status,
  ).toBe(200);
  const refused = await otherCall(b, 'POST', '/api/subscriptions/resume');
  expect([refused.status, refused.body.error?.message]).toEqual([409, 'You already have an active subscription.']);
  const after = await billable(world, new Set([x.body.subscriptionId, y.body.subscriptionId]));
  expect(after.renewing.map((sub) => sub.id)).toEqual([y.body.subscriptionId]);
}

/** The sequences reached the orders that matter (a property over trivial runs proves nothing); prints what they did. */
function expectVariety(trails: string[][]) {
  const steps = trails.flat();
  const count = (pattern: RegExp) => steps.join('\n').match(new RegExp(pattern, 'g'))?.length ?? 0;
  const seen = {
    steps: steps.length,
    concurrentSteps: steps.filter((step) => step.includes(' | ')).length,
    purchases: count(/buy \w+ → 200(?! resumed)/),
    purchasesResuming: count(/buy \w+ → 200 resumed/),
    payments: count(/pay #\d+ → 200/),
    cancels: count(/cancel → 200/),
    resumes: count(/resume → 200/),
    refunds: count(/refund → 200/),
    refusedResumes: count(/resume → 409 You already/),
    deletions: count(/delete → 200/),
  };
  console.info(`[subscription-invariant] ${JSON.stringify(seen)}`);
  // A refused resume needs a paid plan set to cancel, the other plan bought and paid, then resume: since buying the
  // plan set to cancel resumes it, random runs reach that order only now and then (0-5 times); resumeAfterNewPurchase
  // drives it in every run. Every other kind of step must have happened.
  for (const [what, n] of Object.entries(seen)) if (what !== 'refusedResumes') expect(n, what).toBeGreaterThan(0);
}

async function pricesOf(baseUrl: string) {
  const res = await requestFrom<{ data: { stripe_price_id: string; name: string }[] }>(
    freshClient(),
    baseUrl,
    'GET',
    '/api/subscription-plans',
  );
  const price = (name: string) => res.body.data.find((plan) => plan.name === name)!.stripe_price_id;
  return { monthly: price('Carnivo Monthly'), yearly: price('Carnivo Yearly') };
}

const parseValue = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;

describe('one renewing subscription per member, on SQLite (one instance)', () => {
  let app: TestApp;
  let world: World;

  beforeAll(async () => {
    app = await boot({
      limits: 'raised',
      env: { PAYMENTS_MODE: '', STRIPE_SECRET_KEY: '', STRIPE_PUBLISHABLE_KEY: '', STRIPE_WEBHOOK_SECRET: '' },
    });
    const knex = app.strapi.db.connection;
    world = {
      baseUrls: [app.baseUrl],
      prices: await pricesOf(app.baseUrl),
      rows: {
        async sandbox(prefix) {
          const rows = await knex('strapi_core_store_settings').where('key', 'like', `core_payments_sandbox_${prefix}:%`).select('value');
          return rows.map((row: { value: unknown }) => parseValue(row.value));
        },
        async records(userId) {
          return knex('subscriptions as s')
            .join('subscriptions_user_lnk as l', 'l.subscription_id', 's.id')
            .where('l.user_id', userId)
            .select('s.status', 's.cancel_at_period_end', 's.stripe_subscription_id');
        },
      },
    };
  });

  afterAll(async () => {
    await app?.stop();
  });

  it('resuming a cancelled plan ends a purchase still waiting for payment, or is refused once it is paid', async () => {
    await resumeAfterNewPurchase(world);
  });

  it('holds after every step of random sequences of purchase, payment, cancel, resume and deletion', async () => {
    const trails = [];
    for (let seed = 1; seed <= 40; seed += 1) trails.push(await runSequence(world, seed, 16));
    expectVariety(trails);
  }, 240_000);
});

const missing = await missingServices();
if (missing) console.warn(`[subscription-invariant.test] two-instance runs skipped: ${missing}`);

describe.skipIf(missing !== null)('one renewing subscription per member, on PostgreSQL with two instances', () => {
  let cluster: Cluster;
  let world: World;

  beforeAll(async () => {
    // The renewal reminder job ticks every second on both instances (it touches only yearly plans renewing within 30 days).
    cluster = await startCluster(2, { ...RAISED_LIMITS, RENEWAL_REMINDER_CRON: '* * * * * *' });
    world = {
      baseUrls: cluster.instances.map((instance) => instance.baseUrl),
      prices: await pricesOf(cluster.instances[0].baseUrl),
      rows: {
        async sandbox(prefix) {
          const rows = await cluster.sql<{ value: string }>('SELECT value FROM strapi_core_store_settings WHERE key LIKE $1', [
            `core_payments_sandbox_${prefix}:%`,
          ]);
          return rows.map((row) => parseValue(row.value));
        },
        records: (userId) =>
          cluster.sql(
            `SELECT s.status, s.cancel_at_period_end, s.stripe_subscription_id
               FROM subscriptions s JOIN subscriptions_user_lnk l ON l.subscription_id = s.id WHERE l.user_id = $1`,
            [userId],
          ),
      },
    };
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  it('resuming a cancelled plan ends a purchase still waiting for payment, or is refused once it is paid', async () => {
    await resumeAfterNewPurchase(world);
  });

  it('eight money-back refunds sent at once to both instances refund once and e-mail one receipt', async () => {
    const [a, b] = world.baseUrls;
    const member = await signUp(a, `inv_refund_${Date.now() % 100000}`, { from: freshClient() });
    const call = <T>(baseUrl: string, method: string, path: string, body?: unknown, token: string | undefined = member.jwt) =>
      requestFrom<T & ApiError>(freshClient(), baseUrl, method, path, { body, token });
    const bought = await call<{ clientSecret: string; subscriptionId: string }>(a, 'POST', '/api/subscriptions', {
      priceId: world.prices.monthly,
    });
    expect(
      (await call(b, 'POST', '/api/payments/sandbox/confirm', { clientSecret: bought.body.clientSecret, ...CARD }, undefined)).status,
    ).toBe(200);

    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => call(world.baseUrls[i % 2], 'POST', '/api/subscriptions/refund')),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    // Re-read from the database both instances share: one refund at the gateway, the subscription ended, one receipt queued.
    const { subs } = await billable(world, new Set([bought.body.subscriptionId]));
    expect(subs.map((sub) => [sub.status, Object.keys((sub.refunds as Record<string, string>) ?? {}).length])).toEqual([['canceled', 1]]);
    const receipts = await cluster.sql<{ count: string }>(
      `SELECT count(*) FROM email_messages WHERE "to" = $1 AND subject LIKE 'Your Carnivo refund%'`,
      [member.email],
    );
    expect(Number(receipts[0].count)).toBe(1);
  });

  it("both instances' renewal reminder jobs, ticking every second, e-mail a yearly renewal once", async () => {
    const [a, b] = world.baseUrls;
    const member = await signUp(a, `inv_renew_${Date.now() % 100000}`, { from: freshClient() });
    const call = <T>(baseUrl: string, method: string, path: string, body?: unknown, token: string | undefined = member.jwt) =>
      requestFrom<T & ApiError>(freshClient(), baseUrl, method, path, { body, token });
    const bought = await call<{ clientSecret: string; subscriptionId: string }>(a, 'POST', '/api/subscriptions', {
      priceId: world.prices.yearly,
    });
    expect(
      (await call(b, 'POST', '/api/payments/sandbox/confirm', { clientSecret: bought.body.clientSecret, ...CARD }, undefined)).status,
    ).toBe(200);
    // Its renewal brought within the 30 days, as the record would show it 11 months on.
    await cluster.sql(`UPDATE subscriptions SET current_period_end = now() + interval '10 days' WHERE stripe_subscription_id = $1`, [
      bought.body.subscriptionId,
    ]);
    const reminders = async () =>
      Number(
        (
          await cluster.sql<{ count: string }>(`SELECT count(*) FROM email_messages WHERE "to" = $1 AND subject LIKE '% renews on %'`, [
            member.email,
          ])
        )[0].count,
      );
    const deadline = Date.now() + 20_000;
    while ((await reminders()) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    // Several more ticks of both jobs: still one.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(await reminders()).toBe(1);
  }, 60_000);

  it('holds after every step of random sequences sent to both instances', async () => {
    const trails = [];
    for (let seed = 101; seed <= 130; seed += 1) trails.push(await runSequence(world, seed, 16));
    expectVariety(trails);
  }, 300_000);
});
