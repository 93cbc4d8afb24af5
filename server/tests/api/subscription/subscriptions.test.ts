import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { boot, type TestApp } from '../../helpers/app';
import type { Member } from '../../helpers/members';
import { request } from '../../helpers/strapi';
import type { ApiError, ListResponse } from '../../helpers/types';
import { seedSubscriptionPlans } from '../../../src/bootstrap/payments';
import { SandboxGateway, addInterval } from '../../../src/payments';
import { subscriptionService } from '../../../src/api/subscription/services/subscription';
import { renewalReminderDays, renewalReminderTasks } from '../../../src/reminders/cron';
import { settleMail } from '../../helpers/mail-queue';

// Sandbox mode (no Stripe keys): the whole flow runs in-process.
const SANDBOX_ENV = {
  PAYMENTS_MODE: '',
  STRIPE_SECRET_KEY: '',
  STRIPE_PUBLISHABLE_KEY: '',
  STRIPE_WEBHOOK_SECRET: '',
};

const PLAN_KEYS = ['id', 'documentId', 'name', 'stripe_price_id', 'stripe_product_id', 'amount', 'currency', 'duration', 'is_active'];

interface Plan {
  id: number;
  documentId: string;
  name: string;
  stripe_price_id: string;
  stripe_product_id: string;
  amount: number;
  currency: string;
  duration: 'month' | 'year';
  is_active: boolean;
}
interface Current {
  id: string;
  status: string;
  plan: { id: number; productName: string; amount: number; interval: string } | null;
  startDate: string | null;
  currentPeriodEnd: string | null;
  cancel_at_period_end: boolean;
  refundableUntil?: string | null;
  refundableAmount?: number | null;
}
interface Created {
  clientSecret: string;
  subscriptionId: string;
}

let app: TestApp;
let plans: Plan[];
const CARD_OK = '4242 4242 4242 4242';
const DAY_MS = 24 * 60 * 60 * 1000;
const CARD_DECLINED = '4000 0000 0000 0002';
const EXPIRY = '12/34';

const register = (username: string) => app.register(username);
const plan = (name: string) => plans.find((p) => p.name === name)!;
const monthly = () => plan('Carnivo Monthly');
const yearly = () => plan('Carnivo Yearly');
const founders = () => plan('Carnivo Founders (retired)');

const subscribe = (token: string | undefined, body: unknown) =>
  request<Created & ApiError>(app.baseUrl, 'POST', '/api/subscriptions', { token, body });
const current = (token?: string) => request<Current | null>(app.baseUrl, 'GET', '/api/subscriptions/current', { token });
const verify = (token: string, id: string) =>
  request<Current & ApiError>(app.baseUrl, 'GET', `/api/subscriptions/${encodeURIComponent(id)}/verify`, { token });
const cancel = (token?: string) => request<{ cancelAt: string } & ApiError>(app.baseUrl, 'POST', '/api/subscriptions/cancel', { token });
const confirm = (body: Record<string, unknown>) =>
  request<{ paymentIntent: { id: string; status: string } } & ApiError>(app.baseUrl, 'POST', '/api/payments/sandbox/confirm', {
    body,
  });
const records = (userId: number) =>
  app.strapi.db.query('api::subscription.subscription').findMany({ where: { user: { id: userId } }, orderBy: { id: 'asc' } });
const userRow = (id: number) => app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { id } });

beforeAll(async () => {
  // Many sign-ups from one address; the sign-up limits are tested elsewhere.
  app = await boot({ outbox: true, limits: 'raised', env: SANDBOX_ENV });
  const res = await request<ListResponse<Plan>>(app.baseUrl, 'GET', '/api/subscription-plans');
  plans = res.body.data;
});

afterAll(async () => {
  await app?.stop();
});

describe('GET /api/subscription-plans', () => {
  it('lists the seeded plans publicly with the SPEC §3 fields, active first', async () => {
    const res = await request<ListResponse<Plan>>(app.baseUrl, 'GET', '/api/subscription-plans');
    expect(res.status).toBe(200);
    expect(res.body.meta).toBeDefined();
    expect(res.body.data.map((p) => [p.name, p.stripe_price_id, p.amount, p.currency, p.duration, p.is_active])).toEqual([
      ['Carnivo Monthly', 'price_sandbox_monthly', 999, 'usd', 'month', true],
      ['Carnivo Yearly', 'price_sandbox_yearly', 7999, 'usd', 'year', true],
      ['Carnivo Founders (retired)', 'price_sandbox_founders', 4999, 'usd', 'year', false],
    ]);
    for (const p of res.body.data) {
      expect(Object.keys(p).sort()).toEqual([...PLAN_KEYS].sort());
      expect(p.stripe_product_id).toBe('prod_sandbox_carnivo');
    }
  });

  it('also answers a logged-in member, and is read-only', async () => {
    const member = await register('planreader');
    const res = await request<ListResponse<Plan>>(app.baseUrl, 'GET', '/api/subscription-plans', { token: member.jwt });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(3);
    const created = await request(app.baseUrl, 'POST', '/api/subscription-plans', {
      token: member.jwt,
      body: { data: { name: 'Free', stripe_price_id: 'x', amount: 0, duration: 'month' } },
    });
    expect(created.status).toBeGreaterThanOrEqual(400);
    expect((await request(app.baseUrl, 'GET', `/api/subscription-plans/${plans[0].documentId}`)).status).toBe(404);
  });

  it('seeds only once (bootstrap is idempotent)', async () => {
    await seedSubscriptionPlans(app.strapi);
    expect(await app.strapi.db.query('api::subscription-plan.subscription-plan').count()).toBe(3);
  });
});

describe('GET /api/payments/config', () => {
  it('tells the SPA to use the sandbox card form', async () => {
    const res = await request(app.baseUrl, 'GET', '/api/payments/config');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ mode: 'sandbox', publishableKey: null });
  });

  it('has no webhook in sandbox mode', async () => {
    const res = await request(app.baseUrl, 'POST', '/api/payments/webhook', { body: { id: 'evt_1' } });
    expect(res.status).toBe(404);
  });
});

describe('authentication', () => {
  it('answers 401 without a bearer token on every subscription route', async () => {
    expect((await current()).status).toBe(401);
    expect((await subscribe(undefined, { priceId: 'price_sandbox_monthly' })).status).toBe(401);
    expect((await cancel()).status).toBe(401);
    expect((await request(app.baseUrl, 'GET', '/api/subscriptions/sub_x/verify')).status).toBe(401);
  });
});

describe('POST /api/subscriptions rules', () => {
  let member: Member;
  beforeAll(async () => {
    member = await register('rulesmember');
  });

  it('answers null for a member without a subscription', async () => {
    const res = await current(member.jwt);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body).toBeNull();
  });

  it('refuses an unknown plan', async () => {
    const res = await subscribe(member.jwt, { priceId: 'price_does_not_exist' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('This plan does not exist.');
  });

  it('refuses an inactive plan', async () => {
    const res = await subscribe(member.jwt, { priceId: founders().stripe_price_id });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('This plan is no longer available.');
  });

  it('refuses a missing priceId', async () => {
    const res = await subscribe(member.jwt, {});
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('priceId is required.');
  });

  it('creates nothing (no customer, no record) when refusing', async () => {
    expect(await records(member.id)).toEqual([]);
    expect((await userRow(member.id)).stripeCustomerId).toBeNull();
  });

  it('refuses cancel without a subscription', async () => {
    const res = await cancel(member.jwt);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('You have no active subscription to cancel.');

    // As the SPA sends it: JSON content type, no body.
    const spa = await fetch(`${app.baseUrl}/api/subscriptions/cancel`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${member.jwt}` },
    });
    expect(spa.status).toBe(400);
    expect(((await spa.json()) as ApiError).error.message).toBe('You have no active subscription to cancel.');
  });
});

describe('full sandbox flow', () => {
  let alice: Member;
  let first: Created;
  let periodEnd: string;

  beforeAll(async () => {
    alice = await register('alicesub');
  });

  it('creates an incomplete subscription and a customer', async () => {
    const res = await subscribe(alice.jwt, { priceId: monthly().stripe_price_id });
    expect(res.status).toBe(200);
    first = res.body;
    expect(Object.keys(first).sort()).toEqual(['clientSecret', 'subscriptionId']);
    expect(first.subscriptionId).toMatch(/^sub_sandbox_/);
    expect(first.clientSecret).toMatch(/^pi_sandbox_[0-9a-f]+_secret_[0-9a-f]+$/);

    const [record] = await records(alice.id);
    expect(record).toMatchObject({ status: 'incomplete', stripe_subscription_id: first.subscriptionId, cancel_at_period_end: false });
    const customer = (await userRow(alice.id)).stripeCustomerId;
    expect(customer).toMatch(/^cus_sandbox_/);
    expect(record.stripe_customer_id).toBe(customer);

    const now = await current(alice.jwt);
    // Nothing paid yet: nothing to refund.
    expect(now.body).toMatchObject({
      id: first.subscriptionId,
      status: 'incomplete',
      cancel_at_period_end: false,
      refundableUntil: null,
      refundableAmount: null,
    });
  });

  it('refuses confirmation with an invalid card, expiry, cvc or secret', async () => {
    const base = { clientSecret: first.clientSecret, cardNumber: CARD_OK, expiry: EXPIRY, cvc: '123' };
    const cases: [Record<string, unknown>, number, string][] = [
      [{ cardNumber: '4111 1111 1111 1111' }, 400, 'Your card number is incorrect.'],
      [{ cardNumber: '' }, 400, 'Your card number is incorrect.'],
      [{ expiry: '1/2' }, 400, "Your card's expiration date is incomplete. Use MM/YY."],
      [{ expiry: '13/30' }, 400, "Your card's expiration month is invalid."],
      [{ expiry: '01/20' }, 400, "Your card's expiration date is in the past."],
      [{ cvc: '12' }, 400, "Your card's security code is incomplete. Enter 3 or 4 digits."],
      [{ cvc: 'abc' }, 400, "Your card's security code is incomplete. Enter 3 or 4 digits."],
      [{ clientSecret: `${first.clientSecret}0` }, 400, 'This payment is invalid or has expired. Please start again.'],
      [{ clientSecret: undefined }, 400, 'This payment is invalid or has expired. Please start again.'],
    ];
    for (const [override, status, message] of cases) {
      const res = await confirm({ ...base, ...override });
      expect([res.status, res.body.error?.message]).toEqual([status, message]);
      expect(res.body.data).toBeNull();
    }
    expect((await records(alice.id))[0].status).toBe('incomplete');
  });

  it('pays with 4242 4242 4242 4242 and verifies as active for one month', async () => {
    const before = Date.now();
    const res = await confirm({ clientSecret: first.clientSecret, cardNumber: CARD_OK, expiry: EXPIRY, cvc: '123' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ paymentIntent: { id: expect.stringMatching(/^pi_sandbox_/), status: 'succeeded' } });

    const verified = await verify(alice.jwt, first.subscriptionId);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({
      id: first.subscriptionId,
      status: 'active',
      plan: { id: monthly().id, productName: 'Carnivo Monthly', amount: 999, interval: 'month' },
      startDate: expect.any(String),
      currentPeriodEnd: expect.any(String),
      cancel_at_period_end: false,
    });
    periodEnd = verified.body.currentPeriodEnd!;
    const start = Date.parse(verified.body.startDate!);
    expect(start).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(periodEnd)).toBe(addInterval(new Date(start), 'month').getTime());

    // GET /current adds the end of the money-back guarantee: 30 days after this first payment.
    const now = await current(alice.jwt);
    expect(now.body).toEqual({ ...verified.body, refundableUntil: new Date(start + 30 * DAY_MS).toISOString(), refundableAmount: 999 });
  });

  it('confirming the same payment again charges nothing more', async () => {
    const res = await confirm({ clientSecret: first.clientSecret, cardNumber: CARD_OK, expiry: EXPIRY, cvc: '123' });
    expect(res.status).toBe(200);
    expect((await current(alice.jwt)).body?.currentPeriodEnd).toBe(periodEnd);
  });

  it('refuses a second subscription while one is active', async () => {
    for (const priceId of [monthly().stripe_price_id, yearly().stripe_price_id]) {
      const res = await subscribe(alice.jwt, { priceId });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('You already have an active subscription.');
    }
    expect(await records(alice.id)).toHaveLength(1);
  });

  it('cancels at period end and answers cancelAt = currentPeriodEnd', async () => {
    const res = await cancel(alice.jwt);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ cancelAt: periodEnd });

    const now = await current(alice.jwt);
    expect(now.body).toMatchObject({ id: first.subscriptionId, status: 'active', cancel_at_period_end: true, currentPeriodEnd: periodEnd });

    // Cancelling again answers the same date.
    const again = await cancel(alice.jwt);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ cancelAt: periodEnd });
  });

  it('allows a new subscription once the current one is set to cancel, reusing the customer', async () => {
    const customer = (await userRow(alice.id)).stripeCustomerId;
    const res = await subscribe(alice.jwt, { priceId: yearly().stripe_price_id });
    expect(res.status).toBe(200);
    expect(res.body.subscriptionId).not.toBe(first.subscriptionId);
    expect((await userRow(alice.id)).stripeCustomerId).toBe(customer);

    // While the new one waits for payment, the paid one is still the current subscription.
    expect((await current(alice.jwt)).body?.id).toBe(first.subscriptionId);

    const paid = await confirm({
      clientSecret: res.body.clientSecret,
      cardNumber: '4242424242424242',
      expiry: '1/40'.padStart(5, '0'),
      cvc: '1234',
    });
    expect(paid.status).toBe(200);
    const now = await current(alice.jwt);
    expect(now.body).toMatchObject({
      id: res.body.subscriptionId,
      status: 'active',
      plan: { id: yearly().id, productName: 'Carnivo Yearly', amount: 7999, interval: 'year' },
      cancel_at_period_end: false,
    });
    expect(Date.parse(now.body!.currentPeriodEnd!)).toBe(addInterval(new Date(now.body!.startDate!), 'year').getTime());
    expect(await records(alice.id)).toHaveLength(2);
  });

  it('ends a subscription set to cancel once its period is over', async () => {
    const bob = await register('bobexpiry');
    const created = await subscribe(bob.jwt, { priceId: monthly().stripe_price_id });
    await confirm({ clientSecret: created.body.clientSecret, cardNumber: CARD_OK, expiry: EXPIRY, cvc: '123' });
    expect((await cancel(bob.jwt)).status).toBe(200);

    // Move the sandbox clock past the period end.
    const gateway = app.strapi.service('api::payment.gateway').get() as SandboxGateway;
    const clock = gateway as unknown as { now: () => Date };
    const realNow = clock.now;
    const [record] = await records(bob.id);
    clock.now = () => new Date(Date.parse(record.currentPeriodEnd) + 1000);
    await app.strapi.db
      .query('api::subscription.subscription')
      .update({ where: { id: record.id }, data: { currentPeriodEnd: new Date(Date.now() - 1000) } });
    try {
      const now = await current(bob.jwt);
      expect(now.body).toBeNull();
      expect((await records(bob.id))[0].status).toBe('canceled');
      expect((await cancel(bob.jwt)).body.error.message).toBe('You have no active subscription to cancel.');
    } finally {
      clock.now = realNow;
    }
  });
});

describe('the money-back guarantee window (refundableUntil, issue 30)', () => {
  it('ends 30 days after the first payment, on the gateway clock; a renewal does not start it again', async () => {
    const carol = await register('carolrefund');
    const created = await subscribe(carol.jwt, { priceId: monthly().stripe_price_id });
    await confirm({ clientSecret: created.body.clientSecret, cardNumber: CARD_OK, expiry: EXPIRY, cvc: '123' });
    const paid = await request<{ data: { date: string; status: string }[] }>(app.baseUrl, 'GET', '/api/subscriptions/invoices', {
      token: carol.jwt,
    });
    expect(paid.body.data.map((invoice) => invoice.status)).toEqual(['paid']);
    const until = Date.parse(paid.body.data[0].date) + 30 * DAY_MS;

    const gateway = app.strapi.service('api::payment.gateway').get() as SandboxGateway;
    const clock = gateway as unknown as { now: () => Date };
    const realNow = clock.now;
    try {
      clock.now = () => new Date(until - 1000);
      expect((await current(carol.jwt)).body).toMatchObject({ refundableUntil: new Date(until).toISOString(), refundableAmount: 999 });
      clock.now = () => new Date(until);
      expect((await current(carol.jwt)).body).toMatchObject({ status: 'active', refundableUntil: null, refundableAmount: null });
      // Renewed meanwhile: a second paid invoice, still no refund (only the first payment is covered).
      clock.now = () => new Date(until + 5 * DAY_MS);
      expect((await current(carol.jwt)).body).toMatchObject({ status: 'active', refundableUntil: null });
      const renewed = await request<{ data: { status: string }[] }>(app.baseUrl, 'GET', '/api/subscriptions/invoices', {
        token: carol.jwt,
      });
      expect(renewed.body.data.map((invoice) => invoice.status)).toEqual(['paid', 'paid']);
    } finally {
      clock.now = realNow;
    }
  });

  it('a plan set to cancel is still covered; a member without a plan gets no answer at all', async () => {
    const dave = await register('daverefund');
    expect((await current(dave.jwt)).body).toBeNull();
    const created = await subscribe(dave.jwt, { priceId: yearly().stripe_price_id });
    await confirm({ clientSecret: created.body.clientSecret, cardNumber: CARD_OK, expiry: EXPIRY, cvc: '123' });
    expect((await cancel(dave.jwt)).status).toBe(200);
    const now = await current(dave.jwt);
    expect(now.body).toMatchObject({ cancel_at_period_end: true, refundableUntil: expect.any(String), refundableAmount: 7999 });
    expect(Date.parse(now.body!.refundableUntil!)).toBe(Date.parse(now.body!.startDate!) + 30 * DAY_MS);
  });
});

describe('the money-back guarantee: POST /api/subscriptions/refund (issue 30 item 3)', () => {
  const refund = (token?: string) =>
    request<{ invoiceId: string; amount: number; currency: string } & ApiError>(app.baseUrl, 'POST', '/api/subscriptions/refund', {
      token,
    });
  const invoices = (token: string) =>
    request<{ data: { id: string; date: string; status: string; refunded: boolean; amount: number }[] }>(
      app.baseUrl,
      'GET',
      '/api/subscriptions/invoices',
      {
        token,
      },
    );
  const payFor = async (member: Member, plan: Plan) => {
    const created = await subscribe(member.jwt, { priceId: plan.stripe_price_id });
    expect(created.status).toBe(200);
    const paid = await confirm({ clientSecret: created.body.clientSecret, cardNumber: CARD_OK, expiry: EXPIRY, cvc: '123' });
    expect(paid.status).toBe(200);
    return created.body.subscriptionId;
  };
  /** The refunds the sandbox gateway made on a subscription's invoices, read from its own storage. */
  const sandboxRefunds = async (subscriptionId: string) => {
    const stored = (await app.strapi.store({ type: 'core', name: 'payments_sandbox' }).get({ key: `sub:${subscriptionId}` })) as {
      refunds?: Record<string, string>;
    };
    return Object.keys(stored.refunds ?? {});
  };
  const refundMails = (member: Member) =>
    app.outbox.take(member.email).filter((mail) => mail.headers.subject?.startsWith('Your Carnivo refund'));

  it('refunds the first payment in full, ends access at once, marks the invoice Refunded and e-mails a receipt', async () => {
    const member = await register('refundfirst');
    const subscriptionId = await payFor(member, monthly());
    const [paid] = (await invoices(member.jwt)).body.data;
    expect(paid).toMatchObject({ status: 'paid', refunded: false, amount: 999 });

    const res = await refund(member.jwt);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ invoiceId: paid.id, amount: 999, currency: 'usd' });

    // Re-read: the subscription ended now (not at period end), the refund is recorded on it, the gateway refunded that invoice.
    expect((await current(member.jwt)).body).toBeNull();
    const [record] = await records(member.id);
    expect(record).toMatchObject({ status: 'canceled', refunded_invoice_id: paid.id, refund_amount: 999, refund_currency: 'usd' });
    expect(await sandboxRefunds(subscriptionId)).toEqual([paid.id]);
    expect((await invoices(member.jwt)).body.data).toEqual([{ ...paid, refunded: true }]);
    const receipt = await app.outbox.next(member.email, 10_000, 'Your Carnivo refund of $9.99 USD');
    expect(receipt.text).toContain('We refunded your first payment in full under our 30-day money-back guarantee.');
    expect(receipt.text).toContain(`Invoice: ${paid.id}`);
    expect(receipt.text).toContain('Your Carnivo Monthly subscription has ended');
  });

  it('is once per member: after the refund a new plan is not covered, and asking again refunds nothing', async () => {
    const member = await register('refundonce');
    await payFor(member, monthly());
    expect((await refund(member.jwt)).status).toBe(200);
    await payFor(member, yearly());
    // The new plan's payment is within 30 days, but the guarantee is used.
    expect((await current(member.jwt)).body).toMatchObject({ status: 'active', refundableUntil: null });
    const again = await refund(member.jwt);
    expect([again.status, again.body.error?.message]).toEqual([409, 'You have already used the 30-day money-back guarantee.']);
    // Still active, its payment not refunded.
    expect((await current(member.jwt)).body).toMatchObject({ status: 'active', plan: { productName: 'Carnivo Yearly' } });
    expect((await invoices(member.jwt)).body.data.map((invoice) => [invoice.amount, invoice.refunded])).toEqual([
      [7999, false],
      [999, true],
    ]);
    expect(refundMails(member)).toHaveLength(1);
  });

  it('after 30 days, or with nothing paid, it is refused and nothing changes', async () => {
    const member = await register('refundlate');
    const none = await refund(member.jwt);
    expect([none.status, none.body.error?.message]).toEqual([409, 'You have no subscription to refund.']);
    // A purchase waiting for its payment holds no plan.
    expect((await subscribe(member.jwt, { priceId: monthly().stripe_price_id })).status).toBe(200);
    expect((await refund(member.jwt)).body.error?.message).toBe('You have no subscription to refund.');

    const subscriptionId = await payFor(member, monthly());
    const [paid] = (await invoices(member.jwt)).body.data;
    const gateway = app.strapi.service('api::payment.gateway').get() as SandboxGateway;
    const clock = gateway as unknown as { now: () => Date };
    const realNow = clock.now;
    try {
      clock.now = () => new Date(Date.parse(paid.date) + 30 * DAY_MS);
      const late = await refund(member.jwt);
      expect([late.status, late.body.error?.message]).toEqual([
        409,
        'The 30-day money-back guarantee has ended: it covers your first payment for 30 days.',
      ]);
      expect((await current(member.jwt)).body).toMatchObject({ id: subscriptionId, status: 'active', cancel_at_period_end: false });
    } finally {
      clock.now = realNow;
    }
    expect(await sandboxRefunds(subscriptionId)).toEqual([]);
    expect((await records(member.id)).some((record) => record.refunded_at !== null)).toBe(false);
    expect((await refund()).status).toBe(401);
  });

  it('many simultaneous requests refund once', async () => {
    const member = await register('refundburst');
    const subscriptionId = await payFor(member, monthly());
    const answers = await Promise.all(Array.from({ length: 8 }, () => refund(member.jwt)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect(answers.filter((answer) => answer.status === 409).map((answer) => answer.body.error.message)).toEqual(
      Array(7).fill('You have already used the 30-day money-back guarantee.'),
    );
    expect(await sandboxRefunds(subscriptionId)).toHaveLength(1);
    // One receipt queued, counted in the queue itself (not only what the outbox has delivered so far).
    const receipts = await app.strapi.db
      .query('api::email-message.email-message')
      .count({ where: { to: member.email, subject: 'Your Carnivo refund of $9.99 USD' } });
    expect(receipts).toBe(1);
  });

  it('refunds the first payment and ends its plan; a plan bought since, and paid apart, goes on', async () => {
    const member = await register('refundtwoplans');
    await payFor(member, monthly());
    expect((await cancel(member.jwt)).status).toBe(200);
    await payFor(member, yearly());
    // The tab shows the yearly plan, which the guarantee does not cover: no offer there.
    expect((await current(member.jwt)).body).toMatchObject({
      plan: { productName: 'Carnivo Yearly' },
      refundableUntil: null,
      refundableAmount: null,
    });

    const res = await refund(member.jwt);
    expect([res.status, res.body.amount]).toEqual([200, 999]);
    expect((await current(member.jwt)).body).toMatchObject({ status: 'active', plan: { productName: 'Carnivo Yearly' } });
    const rows = await records(member.id);
    expect(rows.map((row) => [row.status, row.refund_amount])).toEqual([
      ['canceled', 999],
      ['active', null],
    ]);
    expect((await invoices(member.jwt)).body.data.map((invoice) => [invoice.amount, invoice.refunded])).toEqual([
      [7999, false],
      [999, true],
    ]);
    const [receipt] = refundMails(member);
    expect(receipt.text).toContain('Your Carnivo Monthly subscription has ended');
  });
});

describe('the reminder before a yearly renewal (issue 30 item 5)', () => {
  const reminders = () => subscriptionService(app.strapi);
  /** One run of the job at `now`, then the mail queue's delivery of what it queued. */
  const run = async (now: number, days?: number) => {
    const result = await reminders().remindRenewals({ now: new Date(now), days });
    await settleMail(app.strapi);
    return result;
  };
  const renewalMails = (member: Member) => app.outbox.take(member.email).filter((mail) => mail.headers.subject?.includes(' renews on '));
  const payFor = async (member: Member, plan: Plan) => {
    const created = await subscribe(member.jwt, { priceId: plan.stripe_price_id });
    await confirm({ clientSecret: created.body.clientSecret, cardNumber: CARD_OK, expiry: EXPIRY, cvc: '123' });
    const now = await current(member.jwt);
    return Date.parse(now.body!.currentPeriodEnd!);
  };

  it('e-mails the amount, the date and how to cancel 30 days before, once per renewal whatever the number of runs', async () => {
    const member = await register('renewyearly');
    const renewsAt = await payFor(member, yearly());
    // 31 days before: not yet.
    expect((await run(renewsAt - 31 * DAY_MS)).sent).toBe(0);
    expect(renewalMails(member)).toEqual([]);

    // Three runs at once (other members' yearly plans of this file are due too): each renewal is sent once.
    const runs = await Promise.all([1, 2, 3].map(() => run(renewsAt - 30 * DAY_MS + 60_000)));
    const due = runs[0].due;
    expect(runs.map((result) => result.due)).toEqual([due, due, due]);
    expect(runs.reduce((sum, result) => sum + result.sent, 0)).toBe(due);
    expect(runs.reduce((sum, result) => sum + result.alreadySent, 0)).toBe(2 * due);
    const mails = renewalMails(member);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    const day = new Date(renewsAt).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
    expect(mail.headers.subject).toBe(`Your Carnivo Yearly renews on ${day}`);
    const at = `${new Date(renewsAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    expect(mail.text).toContain(
      `Your Carnivo Yearly subscription renews on ${day} (${at}), and $79.99 USD will be charged to your card on file.`,
    );
    expect(mail.text).toContain(`To stop it, unsubscribe before ${at} on your profile's Subscriptions tab.`);
    expect(mail.text).toContain('/profile?tab=subscriptions');
    // Later runs before the renewal send nothing more.
    expect((await run(renewsAt - DAY_MS)).sent).toBe(0);
    expect(renewalMails(member)).toEqual([]);

    // The next renewal (a year on) gets its own reminder.
    const next = addInterval(new Date(renewsAt), 'year').getTime();
    const [record] = await records(member.id);
    await app.strapi.db
      .query('api::subscription.subscription')
      .update({ where: { id: record.id }, data: { currentPeriodEnd: new Date(next) } });
    expect((await run(next - 10 * DAY_MS)).sent).toBe(1);
    expect(renewalMails(member)).toHaveLength(1);
  });

  it('says nothing to a monthly plan, a yearly plan set to cancel, or outside the configured days', async () => {
    const monthlyMember = await register('renewmonthly');
    const monthEnd = await payFor(monthlyMember, monthly());
    const cancelling = await register('renewcancel');
    const yearEnd = await payFor(cancelling, yearly());
    expect((await cancel(cancelling.jwt)).status).toBe(200);

    await run(monthEnd - DAY_MS);
    await run(yearEnd - DAY_MS);
    expect(renewalMails(monthlyMember)).toEqual([]);
    expect(renewalMails(cancelling)).toEqual([]);
    // RENEWAL_REMINDER_DAYS=7: 8 days before is too early, 7 days before is the day.
    const shortNotice = await register('renewshort');
    const shortEnd = await payFor(shortNotice, yearly());
    await run(shortEnd - 8 * DAY_MS, 7);
    expect(renewalMails(shortNotice)).toEqual([]);
    await run(shortEnd - 7 * DAY_MS, 7);
    expect(renewalMails(shortNotice)).toHaveLength(1);
  });

  it('runs hourly by default, on RENEWAL_REMINDER_CRON when set, and refuses a wrong RENEWAL_REMINDER_DAYS at start', () => {
    expect(renewalReminderTasks({ NODE_ENV: 'production' }).renewalReminders.options.rule).toBe('0 * * * *');
    expect(renewalReminderTasks({ NODE_ENV: 'production', RENEWAL_REMINDER_CRON: '15 6 * * *' }).renewalReminders.options.rule).toBe(
      '15 6 * * *',
    );
    expect(renewalReminderTasks({ NODE_ENV: 'production', RENEWAL_REMINDER_CRON: 'off' })).toEqual({});
    expect(renewalReminderTasks({ NODE_ENV: 'test' })).toEqual({});
    expect(renewalReminderDays({})).toBe(30);
    expect(renewalReminderDays({ RENEWAL_REMINDER_DAYS: '14' })).toBe(14);
    for (const wrong of ['0', '365', '7.5', 'soon', '-3']) {
      expect(() => renewalReminderTasks({ NODE_ENV: 'production', RENEWAL_REMINDER_DAYS: wrong })).toThrow(
        `RENEWAL_REMINDER_DAYS must be a whole number of days from 1 to 364, not "${wrong}".`,
      );
    }
  });
});

describe('buying the plan set to cancel again', () => {
  const sandbox = () => app.strapi.service('api::payment.gateway').get() as SandboxGateway;
  /** A member who paid the monthly plan and set it to cancel at period end. */
  async function cancellingMember(username: string) {
    const member = await register(username);
    const created = await subscribe(member.jwt, { priceId: monthly().stripe_price_id });
    expect((await confirm({ clientSecret: created.body.clientSecret, cardNumber: CARD_OK, expiry: EXPIRY, cvc: '123' })).status).toBe(200);
    expect((await cancel(member.jwt)).status).toBe(200);
    const customer = (await userRow(member.id)).stripeCustomerId as string;
    const invoices = async () =>
      (await sandbox().listInvoices(customer, 0, 10)).invoices.map((invoice) => [invoice.amount, invoice.status]);
    expect(await invoices()).toEqual([[999, 'paid']]);
    return { member, first: created.body, invoices };
  }

  it('resumes it, charging nothing: no second subscription, no second invoice', async () => {
    const { member, first, invoices } = await cancellingMember('resumebuy1');
    const periodEnd = (await current(member.jwt)).body?.currentPeriodEnd;
    const again = await subscribe(member.jwt, { priceId: monthly().stripe_price_id });
    // Nothing to pay: no client secret, and the subscription answered is the one already paid for.
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ clientSecret: null, subscriptionId: first.subscriptionId });
    const verified = await verify(member.jwt, first.subscriptionId);
    expect(verified.body).toMatchObject({
      id: first.subscriptionId,
      status: 'active',
      cancel_at_period_end: false,
      currentPeriodEnd: periodEnd,
    });
    // Re-read: one record, renewing again, and one paid invoice at the gateway.
    const rows = await records(member.id);
    expect(rows.map((row: { status: string; cancel_at_period_end: boolean }) => [row.status, row.cancel_at_period_end])).toEqual([
      ['active', false],
    ]);
    expect(await invoices()).toEqual([[999, 'paid']]);
    // It renews now, so buying it (or the other plan) once more is refused as SPEC §6 says.
    for (const priceId of [monthly().stripe_price_id, yearly().stripe_price_id]) {
      const refused = await subscribe(member.jwt, { priceId });
      expect([refused.status, refused.body.error?.message]).toEqual([400, 'You already have an active subscription.']);
    }
    expect(await invoices()).toEqual([[999, 'paid']]);
  });

  it('ends an unpaid attempt at another plan first, so that it can no longer be paid', async () => {
    const { member, first, invoices } = await cancellingMember('resumebuy2');
    const yearlyAttempt = await subscribe(member.jwt, { priceId: yearly().stripe_price_id });
    expect(yearlyAttempt.status).toBe(200);
    const again = await subscribe(member.jwt, { priceId: monthly().stripe_price_id });
    expect(again.body).toEqual({ clientSecret: null, subscriptionId: first.subscriptionId });
    const paid = await confirm({ clientSecret: yearlyAttempt.body.clientSecret, cardNumber: CARD_OK, expiry: EXPIRY, cvc: '123' });
    expect([paid.status, paid.body.error?.message]).toEqual([400, 'This payment was canceled. Please start again.']);
    const rows = await records(member.id);
    expect(rows.map((row: { status: string; cancel_at_period_end: boolean }) => [row.status, row.cancel_at_period_end])).toEqual([
      ['active', false],
      ['incomplete_expired', false],
    ]);
    expect(await invoices()).toEqual([[999, 'paid']]);
  });
});

describe('declined card', () => {
  let carol: Member;
  let attempt: Created;

  beforeAll(async () => {
    carol = await register('carolsub');
  });

  it('declines 4000 0000 0000 0002 with 402 and leaves the subscription incomplete', async () => {
    attempt = (await subscribe(carol.jwt, { priceId: monthly().stripe_price_id })).body;
    const res = await confirm({ clientSecret: attempt.clientSecret, cardNumber: CARD_DECLINED, expiry: EXPIRY, cvc: '123' });
    expect(res.status).toBe(402);
    expect(res.body.data).toBeNull();
    expect(res.body.error).toMatchObject({ status: 402, message: 'Your card was declined.' });

    const verified = await verify(carol.jwt, attempt.subscriptionId);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ status: 'incomplete', currentPeriodEnd: null });
    const now = await current(carol.jwt);
    expect(now.body?.status).toBe('incomplete');
    expect((await cancel(carol.jwt)).body.error.message).toBe('You have no active subscription to cancel.');
  });

  it('does not block a new attempt; the abandoned one ends and its secret stops working', async () => {
    const retry = await subscribe(carol.jwt, { priceId: monthly().stripe_price_id });
    expect(retry.status).toBe(200);
    expect(retry.body.subscriptionId).not.toBe(attempt.subscriptionId);
    const rows = await records(carol.id);
    expect(rows.map((r: { status: string }) => r.status)).toEqual(['incomplete_expired', 'incomplete']);

    const stale = await confirm({ clientSecret: attempt.clientSecret, cardNumber: CARD_OK, expiry: EXPIRY, cvc: '123' });
    expect(stale.status).toBe(400);
    expect(stale.body.error.message).toBe('This payment was canceled. Please start again.');

    const paid = await confirm({ clientSecret: retry.body.clientSecret, cardNumber: CARD_OK, expiry: EXPIRY, cvc: '123' });
    expect(paid.status).toBe(200);
    expect((await current(carol.jwt)).body).toMatchObject({ id: retry.body.subscriptionId, status: 'active' });
  });
});

describe('GET /api/subscriptions/:id/verify', () => {
  it("answers 404 for another member's subscription and for unknown ids", async () => {
    const owner = await register('verifyowner');
    const other = await register('verifyother');
    const created = await subscribe(owner.jwt, { priceId: monthly().stripe_price_id });
    expect(created.status).toBe(200);

    const foreign = await verify(other.jwt, created.body.subscriptionId);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe('Subscription not found.');
    const unknown = await verify(other.jwt, 'sub_sandbox_unknown');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('Subscription not found.');

    expect((await verify(owner.jwt, created.body.subscriptionId)).status).toBe(200);
  });
});

describe('account deletion', () => {
  it('cancels the subscription at the gateway and removes the records', async () => {
    const dave = await register('davesub');
    const created = await subscribe(dave.jwt, { priceId: monthly().stripe_price_id });
    await confirm({ clientSecret: created.body.clientSecret, cardNumber: CARD_OK, expiry: EXPIRY, cvc: '123' });
    expect((await current(dave.jwt)).body?.status).toBe('active');

    const res = await request(app.baseUrl, 'DELETE', '/api/users-permissions/users/delete-account', { token: dave.jwt });
    expect(res.status).toBe(200);

    const gateway = app.strapi.service('api::payment.gateway').get() as SandboxGateway;
    expect((await gateway.retrieveSubscription(created.body.subscriptionId)).status).toBe('canceled');
    expect(
      await app.strapi.db.query('api::subscription.subscription').count({ where: { stripe_subscription_id: created.body.subscriptionId } }),
    ).toBe(0);
  });
});

/** The sandbox's stored records (Strapi's core store rows under core_payments_sandbox_*), read from the table. */
const sandboxRows = async () =>
  (await app.strapi.db.connection('strapi_core_store_settings').where('key', 'like', 'core_payments_sandbox_%').select('key', 'value')) as {
    key: string;
    value: string;
  }[];
const sandboxRow = async <T>(key: string): Promise<T | null> => {
  const row = (await sandboxRows()).find((r) => r.key === `core_payments_sandbox_${key}`);
  return row ? (JSON.parse(row.value) as T) : null;
};

describe('account deletion removes the payment customer', () => {
  it('leaves no sandbox record with the e-mail address once the account is deleted', async () => {
    const erin = await register('erinsub');
    const email = 'erinsub@example.com';
    // A declined attempt, then a paid one: several subscriptions and payments under one customer.
    const declined = await subscribe(erin.jwt, { priceId: monthly().stripe_price_id });
    await confirm({ clientSecret: declined.body.clientSecret, cardNumber: CARD_DECLINED, expiry: EXPIRY, cvc: '123' });
    const paid = await subscribe(erin.jwt, { priceId: yearly().stripe_price_id });
    expect((await confirm({ clientSecret: paid.body.clientSecret, cardNumber: CARD_OK, expiry: EXPIRY, cvc: '123' })).status).toBe(200);
    const customerId = (await userRow(erin.id)).stripeCustomerId as string;

    // What deletion has to remove: the gateway holds the address with the customer.
    expect((await sandboxRows()).filter((r) => r.value.includes(email)).map((r) => r.key)).toEqual([
      `core_payments_sandbox_cus:${customerId}`,
    ]);

    const res = await request(app.baseUrl, 'DELETE', '/api/users-permissions/users/delete-account', { token: erin.jwt });
    expect(res.status).toBe(200);

    const rows = await sandboxRows();
    expect(rows.filter((r) => r.value.includes(email))).toEqual([]);
    expect(await sandboxRow(`cus:${customerId}`)).toBeNull();
    expect(await userRow(erin.id)).toBeNull();
    // Its subscriptions ended with it and hold no personal data.
    const gateway = app.strapi.service('api::payment.gateway').get() as SandboxGateway;
    expect((await gateway.retrieveSubscription(paid.body.subscriptionId)).status).toBe('canceled');
    expect((await gateway.retrieveSubscription(declined.body.subscriptionId)).status).toBe('incomplete_expired');
    // The same address can sign up and subscribe again, with a new customer.
    const again = await register('erinsub');
    expect((await subscribe(again.jwt, { priceId: monthly().stripe_price_id })).status).toBe(200);
    const newCustomer = (await userRow(again.id)).stripeCustomerId;
    expect(newCustomer).toMatch(/^cus_sandbox_/);
    expect(newCustomer).not.toBe(customerId);
  });

  it('deletes the customer of a member whose only attempt was never paid', async () => {
    const fay = await register('faysub');
    await subscribe(fay.jwt, { priceId: monthly().stripe_price_id });
    const customerId = (await userRow(fay.id)).stripeCustomerId as string;
    expect(await sandboxRow(`cus:${customerId}`)).toMatchObject({ email: 'faysub@example.com' });

    expect((await request(app.baseUrl, 'DELETE', '/api/users-permissions/users/delete-account', { token: fay.jwt })).status).toBe(200);
    expect(await sandboxRow(`cus:${customerId}`)).toBeNull();
    expect((await sandboxRows()).some((r) => r.value.includes('faysub@example.com'))).toBe(false);
  });
});

describe('concurrent purchases by one member', () => {
  const CANCELED_PAYMENT = 'This payment was canceled. Please start again.';
  const ALREADY = 'You already have an active subscription.';
  const gateway = () => app.strapi.service('api::payment.gateway').get() as SandboxGateway;
  const service = () => subscriptionService(app.strapi);
  /** Payment intents the sandbox marked as paid for these subscriptions: what the member was charged. */
  const charges = async (subscriptionIds: string[]) =>
    (await sandboxRows())
      .filter((r) => r.key.startsWith('core_payments_sandbox_pi:'))
      .map((r) => JSON.parse(r.value) as { subscriptionId: string; status: string })
      .filter((pi) => subscriptionIds.includes(pi.subscriptionId) && pi.status === 'succeeded');

  it('many simultaneous POST /api/subscriptions leave one payable attempt, and paying every answer charges once', async () => {
    const gina = await register('ginasub');
    const prices = Array.from({ length: 12 }, (_, i) => (i % 3 === 2 ? yearly() : monthly()).stripe_price_id);
    const answers = await Promise.all(prices.map((priceId) => subscribe(gina.jwt, { priceId })));

    for (const answer of answers) {
      if (answer.status === 200) {
        expect(answer.body.clientSecret).toMatch(/^pi_sandbox_/);
      } else {
        expect([answer.status, answer.body.error.message]).toEqual([400, ALREADY]);
      }
    }
    const secrets = [...new Set(answers.filter((a) => a.status === 200).map((a) => a.body.clientSecret))];
    expect(secrets.length).toBeGreaterThan(0);

    // Re-read from the database: at most one attempt is still open, and only it can be paid at the gateway.
    const rows = (await records(gina.id)) as { status: string; stripe_subscription_id: string }[];
    expect(rows.filter((r) => r.status === 'incomplete')).toHaveLength(1);
    const payable = [];
    for (const row of rows) {
      if (await gateway().paymentSecret(row.stripe_subscription_id)) payable.push(row.stripe_subscription_id);
    }
    expect(payable).toEqual(rows.filter((r) => r.status === 'incomplete').map((r) => r.stripe_subscription_id));

    // Pay every secret the member was given, all at once.
    const paid = await Promise.all(
      secrets.map((clientSecret) => confirm({ clientSecret, cardNumber: CARD_OK, expiry: EXPIRY, cvc: '123' })),
    );
    expect(paid.filter((r) => r.status === 200)).toHaveLength(1);
    for (const refused of paid.filter((r) => r.status !== 200)) {
      expect([refused.status, refused.body.error.message]).toEqual([400, CANCELED_PAYMENT]);
    }

    const after = (await records(gina.id)) as { status: string; stripe_subscription_id: string }[];
    expect(after.filter((r) => r.status === 'active')).toHaveLength(1);
    expect(after.filter((r) => r.status !== 'active').every((r) => r.status === 'incomplete_expired')).toBe(true);
    expect(await charges(after.map((r) => r.stripe_subscription_id))).toHaveLength(1);
    // And now it is simply an active subscription.
    const more = await Promise.all([monthly(), yearly()].map((p) => subscribe(gina.jwt, { priceId: p.stripe_price_id })));
    expect(more.map((r) => [r.status, r.body.error?.message])).toEqual([
      [400, ALREADY],
      [400, ALREADY],
    ]);
  });

  it('a double click gets the same payment twice; a racing purchase of another plan is refused', async () => {
    const hal = await register('halsub');
    const [first, second] = await Promise.all([
      service().create(hal.id, monthly().stripe_price_id),
      service().create(hal.id, monthly().stripe_price_id),
    ]);
    expect(second).toEqual(first);
    expect(await records(hal.id)).toHaveLength(1);

    // Two plans at once: whichever gets the lock first makes the attempt, the other is refused.
    const outcomes = await Promise.allSettled([
      service().create(hal.id, yearly().stripe_price_id),
      service().create(hal.id, monthly().stripe_price_id),
    ]);
    const made = outcomes.filter((o): o is PromiseFulfilledResult<Created> => o.status === 'fulfilled');
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect([made.length, refused.length]).toEqual([1, 1]);
    expect((refused[0].reason as Error).message).toBe(ALREADY);
    // The earlier attempt (made before these two arrived) was ended first, as before.
    const rows = (await records(hal.id)) as { status: string; stripe_subscription_id: string }[];
    expect(rows.map((r) => r.status)).toEqual(['incomplete_expired', 'incomplete']);
    expect(rows[1].stripe_subscription_id).toBe(made[0].value.subscriptionId);
    const stale = await confirm({ clientSecret: first.clientSecret, cardNumber: CARD_OK, expiry: EXPIRY, cvc: '123' });
    expect([stale.status, stale.body.error?.message]).toEqual([400, CANCELED_PAYMENT]);
    const ok = await confirm({ clientSecret: made[0].value.clientSecret, cardNumber: CARD_OK, expiry: EXPIRY, cvc: '123' });
    expect(ok.status).toBe(200);
    expect(await charges(rows.map((r) => r.stripe_subscription_id))).toHaveLength(1);
  });

  it('a purchase while the previous attempt is being paid either sees it paid or ends it before the payment', async () => {
    const ivy = await register('ivysub');
    const attempt = (await subscribe(ivy.jwt, { priceId: monthly().stripe_price_id })).body;
    const [payment, purchase] = await Promise.all([
      confirm({ clientSecret: attempt.clientSecret, cardNumber: CARD_OK, expiry: EXPIRY, cvc: '123' }),
      subscribe(ivy.jwt, { priceId: monthly().stripe_price_id }),
    ]);
    const rows = (await records(ivy.id)) as { status: string; stripe_subscription_id: string }[];
    if (payment.status === 200) {
      // Paid first: the purchase was refused, nothing else is payable.
      expect([purchase.status, purchase.body.error?.message]).toEqual([400, ALREADY]);
      expect(rows.map((r) => r.status)).toEqual(['active']);
    } else {
      // Ended first: the payment was refused, the new attempt is the only payable one.
      expect([payment.status, payment.body.error?.message]).toEqual([400, CANCELED_PAYMENT]);
      expect(purchase.status).toBe(200);
      expect(rows.map((r) => r.status)).toEqual(['incomplete_expired', 'incomplete']);
    }
    expect(await charges(rows.map((r) => r.stripe_subscription_id))).toHaveLength(payment.status === 200 ? 1 : 0);
  });
});
