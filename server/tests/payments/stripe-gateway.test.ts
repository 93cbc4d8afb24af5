import Stripe from 'stripe';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { request } from '../helpers/strapi';
import type { ApiError, ListResponse } from '../helpers/types';
import { startStripeDouble, type StripeDouble } from '../helpers/stripe-double';
import { GatewayError, StripeGateway, mapStripeCard, resolveMode } from '../../src/payments';
import { boot, type TestApp } from '../helpers/app';
import type { Member } from '../helpers/members';

const WEBHOOK_SECRET = 'whsec_test_carnivo';
const signer = new Stripe('sk_test_signer');

let double: StripeDouble;

beforeAll(async () => {
  double = await startStripeDouble();
});

afterAll(async () => {
  await double?.stop();
});

const gatewayFor = (port: number, overrides: Partial<ConstructorParameters<typeof StripeGateway>[0]> = {}) =>
  new StripeGateway({
    secretKey: 'sk_test_gateway',
    publishableKey: 'pk_test_gateway',
    webhookSecret: WEBHOOK_SECRET,
    host: '127.0.0.1',
    port,
    protocol: 'http',
    maxNetworkRetries: 0,
    ...overrides,
  });

describe('configuration', () => {
  it('picks Stripe when a secret key is set, the sandbox otherwise, and refuses half a Stripe setup', () => {
    expect(resolveMode({ stripe: {} })).toBe('sandbox');
    expect(resolveMode({ mode: 'sandbox', stripe: { secretKey: 'sk' } })).toBe('sandbox');
    expect(resolveMode({ stripe: { secretKey: 'sk', publishableKey: 'pk', webhookSecret: 'wh' } })).toBe('stripe');
    expect(() => resolveMode({ stripe: { secretKey: 'sk' } })).toThrow(
      'Stripe payments need STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET',
    );
    expect(() => resolveMode({ mode: 'stripe', stripe: {} })).toThrow(/STRIPE_SECRET_KEY/);
    expect(() => resolveMode({ mode: 'paypal' })).toThrow(/PAYMENTS_MODE/);
  });
});

describe('the card on file, from what Stripe returns', () => {
  it("reads a card PaymentMethod and a legacy Card source, naming the network in Stripe's codes", () => {
    const method = { object: 'payment_method', type: 'card', card: { brand: 'mastercard', last4: '4444', exp_month: 3, exp_year: 2031 } };
    expect(mapStripeCard(method)).toEqual({ brand: 'mastercard', last4: '4444', expMonth: 3, expYear: 2031 });
    const source = (brand: string) => ({ object: 'card', brand, last4: '0005', exp_month: 7, exp_year: 2032 });
    expect(mapStripeCard(source('American Express'))).toEqual({ brand: 'amex', last4: '0005', expMonth: 7, expYear: 2032 });
    expect(mapStripeCard(source('MasterCard'))?.brand).toBe('mastercard');
    expect(mapStripeCard(source('Diners Club'))?.brand).toBe('diners');
    expect(mapStripeCard(source('Visa'))?.brand).toBe('visa');
    expect(mapStripeCard(source('Some New Network'))?.brand).toBe('unknown');
  });

  it('finds no card in an unexpanded id, another kind of payment method, or nothing', () => {
    for (const value of [
      null,
      undefined,
      'pm_123',
      { object: 'payment_method', type: 'us_bank_account', card: null },
      { object: 'bank_account', last4: '6789' },
    ]) {
      expect(mapStripeCard(value)).toBeNull();
    }
  });
});

describe('StripeGateway through the stripe SDK against a local double', () => {
  let gateway: StripeGateway;
  let customerId: string;
  let subscriptionId: string;

  beforeAll(() => {
    gateway = gatewayFor(double.port);
  });

  it('creates a customer (POST /v1/customers) with an idempotency key', async () => {
    const before = double.requests.length;
    const result = await gateway.createCustomer({ userId: 7, userDocumentId: 'doc7', email: 'ann@example.com', username: 'ann' });
    customerId = result.customerId;
    expect(customerId).toMatch(/^cus_test_/);
    const [req] = double.requests.slice(before);
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/customers');
    expect(req.params).toEqual({
      email: 'ann@example.com',
      name: 'ann',
      'metadata[userId]': '7',
      'metadata[userDocumentId]': 'doc7',
    });
    expect(req.headers.authorization).toBe('Bearer sk_test_gateway');
    expect(req.headers['idempotency-key']).toBe('carnivo-customer-doc7');
    expect(req.headers['stripe-version']).toBe(Stripe.API_VERSION);
  });

  it('creates a default_incomplete subscription and reads the client secret from latest_invoice.confirmation_secret', async () => {
    const before = double.requests.length;
    const created = await gateway.createSubscription(customerId, 'price_test_monthly');
    const [req] = double.requests.slice(before);
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/subscriptions');
    expect(req.params).toEqual({
      customer: customerId,
      'items[0][price]': 'price_test_monthly',
      payment_behavior: 'default_incomplete',
      'payment_settings[save_default_payment_method]': 'on_subscription',
      'payment_settings[payment_method_types][0]': 'card',
      'expand[0]': 'latest_invoice.confirmation_secret',
    });

    const stored = double.subscriptions.get(created.subscriptionId)!;
    subscriptionId = created.subscriptionId;
    expect(created).toEqual({
      subscriptionId: stored.id,
      clientSecret: stored.clientSecret,
      status: 'incomplete',
      currentPeriodEnd: new Date(stored.current_period_end * 1000),
      subscription: {
        id: stored.id,
        customerId,
        status: 'incomplete',
        priceId: 'price_test_monthly',
        startDate: new Date(stored.start_date * 1000),
        currentPeriodEnd: new Date(stored.current_period_end * 1000),
        cancelAtPeriodEnd: false,
        cancelAt: null,
      },
    });
  });

  it('retrieves a subscription (GET /v1/subscriptions/:id) and maps its status and period', async () => {
    const stored = double.subscriptions.get(subscriptionId)!;
    stored.status = 'active';
    stored.current_period_end = 1_900_000_000;
    const before = double.requests.length;
    const sub = await gateway.retrieveSubscription(subscriptionId);
    const [req] = double.requests.slice(before);
    expect([req.method, req.path]).toEqual(['GET', `/v1/subscriptions/${subscriptionId}`]);
    expect(sub).toMatchObject({ id: subscriptionId, status: 'active', currentPeriodEnd: new Date(1_900_000_000_000) });
  });

  it('sets cancel_at_period_end (POST /v1/subscriptions/:id)', async () => {
    const before = double.requests.length;
    const sub = await gateway.cancelAtPeriodEnd(subscriptionId);
    const [req] = double.requests.slice(before);
    expect([req.method, req.path]).toEqual(['POST', `/v1/subscriptions/${subscriptionId}`]);
    expect(req.params).toEqual({ cancel_at_period_end: 'true' });
    expect(sub).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
      cancelAt: new Date(1_900_000_000_000),
      currentPeriodEnd: new Date(1_900_000_000_000),
    });
  });

  it('cancels now (DELETE /v1/subscriptions/:id)', async () => {
    const before = double.requests.length;
    const sub = await gateway.cancelNow(subscriptionId);
    const [req] = double.requests.slice(before);
    expect([req.method, req.path]).toEqual(['DELETE', `/v1/subscriptions/${subscriptionId}`]);
    expect(sub.status).toBe('canceled');
  });

  it('translates Stripe errors', async () => {
    await expect(gateway.retrieveSubscription('sub_nope')).rejects.toMatchObject({
      name: 'GatewayError',
      kind: 'not_found',
      code: 'resource_missing',
    });
    await expect(gateway.createSubscription(customerId, 'price_missing')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(gateway.cancelNow(subscriptionId)).rejects.toMatchObject({ kind: 'invalid_request' });

    double.failNext(402, { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' });
    await expect(gateway.retrieveSubscription(subscriptionId)).rejects.toMatchObject({
      kind: 'card',
      code: 'card_declined',
      message: 'Your card was declined.',
    });

    double.failNext(401, { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_***' });
    await expect(gateway.retrieveSubscription(subscriptionId)).rejects.toMatchObject({ kind: 'unavailable' });

    // Nothing listens on the port any more: a connection error.
    const closed = await startStripeDouble();
    const port = closed.port;
    await closed.stop();
    await expect(gatewayFor(port).retrieveSubscription(subscriptionId)).rejects.toBeInstanceOf(GatewayError);
    await expect(gatewayFor(port).retrieveSubscription(subscriptionId)).rejects.toMatchObject({ kind: 'unavailable' });
  });

  it('reads the payment secret of a subscription while its first invoice is open, and only then', async () => {
    const { customerId: customer } = await gateway.createCustomer({
      userId: 8,
      userDocumentId: 'doc8',
      email: 'ben@example.com',
      username: 'ben',
    });
    const created = await gateway.createSubscription(customer, 'price_test_monthly');
    const before = double.requests.length;
    expect(await gateway.paymentSecret(created.subscriptionId)).toBe(created.clientSecret);
    const [req] = double.requests.slice(before);
    expect([req.method, req.path, req.params]).toEqual([
      'GET',
      `/v1/subscriptions/${created.subscriptionId}`,
      { 'expand[0]': 'latest_invoice.confirmation_secret' },
    ]);
    double.subscriptions.get(created.subscriptionId)!.status = 'active';
    expect(await gateway.paymentSecret(created.subscriptionId)).toBeNull();
  });

  it('deletes a customer (DELETE /v1/customers/:id); one already gone is not an error; an outage is', async () => {
    const { customerId: customer } = await gateway.createCustomer({
      userId: 9,
      userDocumentId: 'doc9',
      email: 'cat@example.com',
      username: 'cat',
    });
    const sub = await gateway.createSubscription(customer, 'price_test_monthly');
    double.subscriptions.get(sub.subscriptionId)!.status = 'active';

    double.failNext(500, { type: 'api_error', message: 'Something went wrong on our end.' }, 1, {
      method: 'DELETE',
      pathPrefix: '/v1/customers/',
    });
    await expect(gateway.deleteCustomer(customer)).rejects.toMatchObject({ name: 'GatewayError', kind: 'unavailable' });
    expect(double.customers.has(customer)).toBe(true);

    const before = double.requests.length;
    await gateway.deleteCustomer(customer);
    const [req] = double.requests.slice(before);
    expect([req.method, req.path]).toEqual(['DELETE', `/v1/customers/${customer}`]);
    expect(req.headers.authorization).toBe('Bearer sk_test_gateway');
    expect(double.customers.has(customer)).toBe(false);
    expect(double.deletedCustomers).toContain(customer);
    // Stripe ends the customer's subscriptions with it.
    expect(double.subscriptions.get(sub.subscriptionId)!.status).toBe('canceled');

    // Deleted already (404 resource_missing): nothing left to do.
    await expect(gateway.deleteCustomer(customer)).resolves.toBeUndefined();
    // The refused one, the deletion, and this one.
    expect(double.requestsTo('DELETE', `/v1/customers/${customer}`)).toHaveLength(3);
  });

  it('verifies webhook signatures over the raw body', () => {
    const payload = JSON.stringify({
      id: 'evt_unit',
      object: 'event',
      type: 'invoice.paid',
      created: 1_800_000_000,
      data: { object: { id: 'in_1', object: 'invoice', parent: { subscription_details: { subscription: 'sub_42' } } } },
    });
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect(gateway.constructWebhookEvent(payload, header)).toEqual({
      id: 'evt_unit',
      type: 'invoice.paid',
      created: 1_800_000_000,
      subscription: null,
      subscriptionId: 'sub_42',
    });
    expect(() => gateway.constructWebhookEvent(`${payload} `, header)).toThrow(GatewayError);
    expect(() =>
      gateway.constructWebhookEvent(payload, signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' })),
    ).toThrow(expect.objectContaining({ kind: 'signature' }));
    expect(() => gateway.constructWebhookEvent(payload, undefined)).toThrow(expect.objectContaining({ kind: 'signature' }));
  });
});

describe('the server in Stripe mode', () => {
  let app: TestApp;
  let alice: Member;
  let subId: string;
  /** Seconds; events are stamped after the subscription was created. */
  let t0: number;

  const current = (token: string) => request<Record<string, unknown> | null>(app.baseUrl, 'GET', '/api/subscriptions/current', { token });
  const record = () => app.strapi.db.query('api::subscription.subscription').findOne({ where: { stripe_subscription_id: subId } });
  const eventCount = () => app.strapi.db.query('api::payment.payment-event').count();

  const subscriptionObject = (overrides: Record<string, unknown> = {}) => {
    const stored = double.subscriptions.get(subId)!;
    return {
      id: subId,
      object: 'subscription',
      customer: stored.customer,
      status: 'active',
      start_date: stored.start_date,
      cancel_at_period_end: false,
      cancel_at: null,
      items: {
        object: 'list',
        data: [{ id: 'si_1', object: 'subscription_item', price: { id: 'price_test_monthly' }, current_period_end: 1_900_000_000 }],
      },
      ...overrides,
    };
  };
  const eventPayload = (id: string, type: string, created: number, object: unknown) =>
    JSON.stringify({ id, object: 'event', type, created, api_version: Stripe.API_VERSION, data: { object } });
  const postWebhook = async (payload: string, signature?: string) => {
    const res = await fetch(`${app.baseUrl}/api/payments/webhook`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        ...(signature !== undefined ? { 'Stripe-Signature': signature } : {}),
      },
      body: payload,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & Partial<ApiError> };
  };
  const sign = (payload: string, secret = WEBHOOK_SECRET) => signer.webhooks.generateTestHeaderString({ payload, secret });
  const send = (payload: string) => postWebhook(payload, sign(payload));

  beforeAll(async () => {
    app = await boot({
      limits: 'raised',
      env: {
        PAYMENTS_MODE: '',
        ...double.env(WEBHOOK_SECRET),
        STRIPE_PRODUCT_ID: 'prod_test_carnivo',
      },
    });
    alice = await app.register('stripealice');
  });

  afterAll(async () => {
    await app?.stop();
  });

  it('serves the publishable key and hides the sandbox', async () => {
    expect((await request(app.baseUrl, 'GET', '/api/payments/config')).body).toEqual({
      mode: 'stripe',
      publishableKey: 'pk_test_server',
    });
    const confirm = await request<ApiError>(app.baseUrl, 'POST', '/api/payments/sandbox/confirm', {
      body: { clientSecret: 'pi_x_secret_y', cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' },
    });
    expect(confirm.status).toBe(404);
  });

  it('seeds the plans with the configured price ids', async () => {
    const res = await request<ListResponse<{ stripe_price_id: string; stripe_product_id: string }>>(
      app.baseUrl,
      'GET',
      '/api/subscription-plans',
    );
    expect(res.body.data.map((p) => [p.stripe_price_id, p.stripe_product_id])).toEqual([
      ['price_test_monthly', 'prod_test_carnivo'],
      ['price_test_yearly', 'prod_test_carnivo'],
      ['price_sandbox_founders', 'prod_test_carnivo'],
    ]);
  });

  it('creates the customer once and the subscription through Stripe', async () => {
    const before = double.requests.length;
    const res = await request<{ clientSecret: string; subscriptionId: string }>(app.baseUrl, 'POST', '/api/subscriptions', {
      token: alice.jwt,
      body: { priceId: 'price_test_monthly' },
    });
    expect(res.status).toBe(200);
    subId = res.body.subscriptionId;
    expect(res.body).toEqual({ subscriptionId: subId, clientSecret: double.subscriptions.get(subId)!.clientSecret });
    const made = double.requests.slice(before).map((r) => `${r.method} ${r.path}`);
    expect(made).toEqual(['POST /v1/customers', 'POST /v1/subscriptions']);
    const user = await app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { id: alice.id } });
    expect(user.stripeCustomerId).toBe(double.subscriptions.get(subId)!.customer);
    expect((await record()).status).toBe('incomplete');
    t0 = Math.floor(Date.now() / 1000) + 5;
  });

  it('answers 502 with a clear message when Stripe refuses or is unreachable, creating nothing', async () => {
    const bob = await app.register('stripebob');
    const before = await app.strapi.db.query('api::subscription.subscription').count();
    // The server's SDK retries 5xx answers (2 retries by default): fail them all.
    double.failNext(500, { type: 'api_error', message: 'Something went wrong on our end.' }, 3);
    const res = await request<ApiError>(app.baseUrl, 'POST', '/api/subscriptions', {
      token: bob.jwt,
      body: { priceId: 'price_test_monthly' },
    });
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({
      status: 502,
      name: 'PaymentServiceError',
      message: 'The payment service could not complete the request. Please try again later.',
    });
    expect(await app.strapi.db.query('api::subscription.subscription').count()).toBe(before);
    double.clearFailure();
  });

  it('refuses webhooks without a valid signature', async () => {
    const payload = eventPayload('evt_forged', 'customer.subscription.updated', t0, subscriptionObject());
    const cases = [
      await postWebhook(payload),
      await postWebhook(payload, sign(payload, 'whsec_wrong')),
      await postWebhook(payload, sign(payload.replace('"active"', '"trialing"'))),
      await postWebhook(payload, 't=1,v1=deadbeef'),
    ];
    for (const res of cases) {
      expect(res.status).toBe(400);
      expect(res.body.data).toBeNull();
    }
    expect(cases[1].body.error?.message).toBe('Invalid Stripe signature.');
    expect((await record()).status).toBe('incomplete');
    expect(await eventCount()).toBe(0);
  });

  it('applies a signed event once; its replay changes nothing', async () => {
    const payload = eventPayload('evt_active', 'customer.subscription.updated', t0, subscriptionObject());
    const first = await send(payload);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true, duplicate: false, outcome: 'applied' });
    expect(await current(alice.jwt).then((r) => r.body)).toMatchObject({
      id: subId,
      status: 'active',
      currentPeriodEnd: new Date(1_900_000_000_000).toISOString(),
      cancel_at_period_end: false,
    });

    // Something else changes the record afterwards; replaying (re-signed, as Stripe's retries are) does not undo it.
    const row = await record();
    await app.strapi.db.query('api::subscription.subscription').update({ where: { id: row.id }, data: { status: 'past_due' } });
    const replay = await send(payload);
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ received: true, duplicate: true });
    expect((await record()).status).toBe('past_due');
    expect(await eventCount()).toBe(1);
    await app.strapi.db.query('api::subscription.subscription').update({ where: { id: row.id }, data: { status: 'active' } });
  });

  it('ignores an event older than the last one applied', async () => {
    const newer = eventPayload(
      'evt_cancel',
      'customer.subscription.updated',
      t0 + 100,
      subscriptionObject({ cancel_at_period_end: true, cancel_at: 1_900_000_000 }),
    );
    expect((await send(newer)).body).toMatchObject({ outcome: 'applied' });
    expect((await record()).cancel_at_period_end).toBe(true);

    const older = eventPayload(
      'evt_old',
      'customer.subscription.updated',
      t0 + 50,
      subscriptionObject({
        status: 'past_due',
        items: { object: 'list', data: [{ price: { id: 'price_test_monthly' }, current_period_end: 1_800_000_000 }] },
      }),
    );
    const res = await send(older);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ duplicate: false, outcome: 'stale' });
    expect(await record()).toMatchObject({ status: 'active', cancel_at_period_end: true });
    expect(Date.parse((await record()).currentPeriodEnd)).toBe(1_900_000_000_000);
  });

  it('applies invoice.paid and invoice.payment_failed from the subscription Stripe reports', async () => {
    const stored = double.subscriptions.get(subId)!;
    Object.assign(stored, { status: 'active', current_period_end: 1_950_000_000, cancel_at_period_end: true, cancel_at: 1_950_000_000 });
    const before = double.requests.length;
    const invoice = { id: 'in_2', object: 'invoice', parent: { subscription_details: { subscription: subId } } };
    expect((await send(eventPayload('evt_paid', 'invoice.paid', t0 + 200, invoice))).body).toMatchObject({ outcome: 'applied' });
    expect(double.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/subscriptions/${subId}`]);
    expect(Date.parse((await record()).currentPeriodEnd)).toBe(1_950_000_000_000);

    stored.status = 'past_due';
    expect((await send(eventPayload('evt_failed', 'invoice.payment_failed', t0 + 300, invoice))).body).toMatchObject({
      outcome: 'applied',
    });
    expect((await record()).status).toBe('past_due');
  });

  it('does not record an event it failed to apply, so that Stripe retries it', async () => {
    const invoice = { id: 'in_3', object: 'invoice', parent: { subscription_details: { subscription: subId } } };
    const payload = eventPayload('evt_retry', 'invoice.paid', t0 + 350, invoice);
    double.subscriptions.get(subId)!.status = 'active';
    double.failNext(500, { type: 'api_error', message: 'boom' }, 3);
    expect((await send(payload)).status).toBe(502);
    double.clearFailure();
    expect(await app.strapi.db.query('api::payment.payment-event').count({ where: { event_id: 'evt_retry' } })).toBe(0);
    expect((await send(payload)).body).toMatchObject({ duplicate: false, outcome: 'applied' });
    expect((await record()).status).toBe('active');
  });

  it('ends the subscription on customer.subscription.deleted, for good', async () => {
    const deleted = eventPayload('evt_deleted', 'customer.subscription.deleted', t0 + 400, subscriptionObject({ status: 'canceled' }));
    expect((await send(deleted)).body).toMatchObject({ outcome: 'applied' });
    expect((await current(alice.jwt)).body).toBeNull();

    const revived = eventPayload('evt_revive', 'customer.subscription.updated', t0 + 500, subscriptionObject({ status: 'active' }));
    expect((await send(revived)).body).toMatchObject({ outcome: 'ended' });
    expect((await record()).status).toBe('canceled');

    const unknown = eventPayload('evt_unknown', 'customer.subscription.updated', t0, { ...subscriptionObject(), id: 'sub_elsewhere' });
    expect((await send(unknown)).body).toMatchObject({ outcome: 'unknown-subscription' });
  });

  it("answers the end of the money-back guarantee from Stripe's invoices: 30 days after the oldest paid one", async () => {
    const erin = await app.register('stripeerin');
    const created = await request<{ subscriptionId: string }>(app.baseUrl, 'POST', '/api/subscriptions', {
      token: erin.jwt,
      body: { priceId: 'price_test_yearly' },
    });
    const id = created.body.subscriptionId;
    const customer = double.subscriptions.get(id)!.customer;
    Object.assign(double.subscriptions.get(id)!, { status: 'active', current_period_end: 1_960_000_000 });
    // Paid in the browser: the app verifies it.
    expect((await request(app.baseUrl, 'GET', `/api/subscriptions/${id}/verify`, { token: erin.jwt })).status).toBe(200);
    const day = 86_400;
    const nowSeconds = Math.floor(Date.now() / 1000);
    const invoice = (n: number, created: number, status: string) => ({
      id: `in_erin_${n}`,
      object: 'invoice',
      customer,
      created,
      status,
      parent: { type: 'subscription_details', subscription_details: { subscription: id } },
      status_transitions: { paid_at: status === 'paid' ? created : null },
      amount_paid: status === 'paid' ? 7999 : 0,
      amount_due: 7999,
      currency: 'usd',
      lines: { object: 'list', data: [] },
    });
    // An older invoice never paid does not start the window; the first paid one, 10 days ago, does.
    double.invoices.push(invoice(0, nowSeconds - 40 * day, 'void'), invoice(1, nowSeconds - 10 * day, 'paid'));
    const listed = double.requestsTo('GET', '/v1/invoices').length;
    const answer = await current(erin.jwt);
    expect(answer.body).toMatchObject({
      id,
      status: 'active',
      refundableUntil: new Date((nowSeconds + 20 * day) * 1000).toISOString(),
      refundableAmount: 7999,
    });
    const calls = double.requestsTo('GET', '/v1/invoices').slice(listed);
    expect(calls.map((call) => call.params.customer)).toEqual([customer]);

    // A payment 31 days ago is the first one: the window is past.
    double.invoices.push(invoice(2, nowSeconds - 31 * day, 'paid'));
    expect((await current(erin.jwt)).body).toMatchObject({ id, refundableUntil: null, refundableAmount: null });
  });

  describe('the money-back guarantee through Stripe (POST /api/subscriptions/refund)', () => {
    /** A member with an active monthly subscription whose first invoice, paid `daysAgo`, is at Stripe. */
    async function payingMember(username: string, daysAgo: number) {
      const member = await app.register(username);
      const created = await request<{ subscriptionId: string }>(app.baseUrl, 'POST', '/api/subscriptions', {
        token: member.jwt,
        body: { priceId: 'price_test_monthly' },
      });
      const id = created.body.subscriptionId;
      Object.assign(double.subscriptions.get(id)!, { status: 'active', current_period_end: 1_960_000_000 });
      expect((await request(app.baseUrl, 'GET', `/api/subscriptions/${id}/verify`, { token: member.jwt })).status).toBe(200);
      const invoiceId = `in_${username}`;
      const paidAt = Math.floor(Date.now() / 1000) - daysAgo * 86_400;
      double.invoices.push({
        id: invoiceId,
        object: 'invoice',
        customer: double.subscriptions.get(id)!.customer,
        created: paidAt,
        status_transitions: { paid_at: paidAt },
        parent: { type: 'subscription_details', subscription_details: { subscription: id } },
        status: 'paid',
        amount_paid: 999,
        amount_due: 999,
        currency: 'usd',
        lines: { object: 'list', data: [] },
      });
      return { member, id, invoiceId };
    }
    const refund = (token: string) =>
      request<Record<string, unknown> & Partial<ApiError>>(app.baseUrl, 'POST', '/api/subscriptions/refund', { token });
    const refundsOf = (invoiceId: string) => double.refunds.filter((refund) => refund.payment_intent === `pi_for_${invoiceId}`);

    it("refunds the invoice's PaymentIntent once (an idempotency key), then ends the subscription now", async () => {
      const { member, id, invoiceId } = await payingMember('stripegina', 3);
      const res = await refund(member.jwt);
      expect([res.status, res.body]).toEqual([200, { invoiceId, amount: 999, currency: 'usd' }]);
      const [post] = double.requestsTo('POST', '/v1/refunds').filter((call) => call.params.payment_intent === `pi_for_${invoiceId}`);
      expect(post.headers['idempotency-key']).toBe(`carnivo-refund-${invoiceId}`);
      expect(post.params).toMatchObject({ reason: 'requested_by_customer', 'metadata[carnivo_invoice]': invoiceId });
      expect(refundsOf(invoiceId)).toHaveLength(1);
      expect(double.requestsTo('DELETE', `/v1/subscriptions/${id}`)).toHaveLength(1);
      expect(double.subscriptions.get(id)!.status).toBe('canceled');
      expect((await current(member.jwt)).body).toBeNull();
      const listed = await request<{ data: { id: string; refunded: boolean }[] }>(app.baseUrl, 'GET', '/api/subscriptions/invoices', {
        token: member.jwt,
      });
      expect(listed.body.data).toEqual([expect.objectContaining({ id: invoiceId, refunded: true })]);
    });

    it('a refund whose cancel failed at Stripe records nothing; asked again, it ends the subscription without a second refund', async () => {
      const { member, id, invoiceId } = await payingMember('stripehank', 3);
      double.failNext(400, { type: 'invalid_request_error', message: 'Stripe could not cancel.' }, 1, {
        method: 'DELETE',
        pathPrefix: `/v1/subscriptions/${id}`,
      });
      const failed = await refund(member.jwt);
      expect(failed.status).toBeGreaterThanOrEqual(400);
      // The money went back; the subscription still runs at Stripe, and the offer is still there to finish it.
      expect(refundsOf(invoiceId)).toHaveLength(1);
      expect(double.subscriptions.get(id)!.status).toBe('active');
      const [record] = await app.strapi.db.query('api::subscription.subscription').findMany({ where: { stripe_subscription_id: id } });
      expect(record.refunded_invoice_id).toBeNull();
      expect((await current(member.jwt)).body).toMatchObject({ refundableAmount: 999 });

      const retried = await refund(member.jwt);
      expect([retried.status, retried.body]).toEqual([200, { invoiceId, amount: 999, currency: 'usd' }]);
      expect(refundsOf(invoiceId)).toHaveLength(1);
      expect(double.subscriptions.get(id)!.status).toBe('canceled');
      const again = await refund(member.jwt);
      expect([again.status, again.body.error?.message]).toEqual([409, 'You have already used the 30-day money-back guarantee.']);
    });

    it('a refund made earlier, whose idempotency key Stripe no longer keeps, is found and recorded, not refused', async () => {
      const { member, id, invoiceId } = await payingMember('stripejane', 2);
      // As if a try two days ago refunded it and then crashed before anything was recorded.
      double.refunds.push({
        id: 're_earlier',
        object: 'refund',
        payment_intent: `pi_for_${invoiceId}`,
        amount: 999,
        currency: 'usd',
        status: 'succeeded',
      });
      const res = await refund(member.jwt);
      expect([res.status, res.body]).toEqual([200, { invoiceId, amount: 999, currency: 'usd' }]);
      expect(refundsOf(invoiceId)).toHaveLength(1);
      expect(double.requestsTo('GET', '/v1/refunds').at(-1)!.params.payment_intent).toBe(`pi_for_${invoiceId}`);
      expect(double.subscriptions.get(id)!.status).toBe('canceled');
    });

    it('a first payment 31 days old is not refunded', async () => {
      const { member, id, invoiceId } = await payingMember('stripeivan', 31);
      const res = await refund(member.jwt);
      expect([res.status, res.body.error?.message]).toEqual([
        409,
        'The 30-day money-back guarantee has ended: it covers your first payment for 30 days.',
      ]);
      expect(refundsOf(invoiceId)).toHaveLength(0);
      expect(double.subscriptions.get(id)!.status).toBe('active');
    });
  });

  it('verifies, cancels at period end and cancels on account deletion through Stripe', async () => {
    const carol = await app.register('stripecarol');
    const created = await request<{ subscriptionId: string }>(app.baseUrl, 'POST', '/api/subscriptions', {
      token: carol.jwt,
      body: { priceId: 'price_test_yearly' },
    });
    const id = created.body.subscriptionId;
    Object.assign(double.subscriptions.get(id)!, { status: 'active', current_period_end: 1_960_000_000 });

    const verified = await request<Record<string, unknown>>(app.baseUrl, 'GET', `/api/subscriptions/${id}/verify`, {
      token: carol.jwt,
    });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ id, status: 'active', currentPeriodEnd: new Date(1_960_000_000_000).toISOString() });
    expect((await request(app.baseUrl, 'GET', `/api/subscriptions/${id}/verify`, { token: alice.jwt })).status).toBe(404);

    const before = double.requests.length;
    const cancel = await request<{ cancelAt: string }>(app.baseUrl, 'POST', '/api/subscriptions/cancel', { token: carol.jwt });
    expect(cancel.status).toBe(200);
    expect(cancel.body).toEqual({ cancelAt: new Date(1_960_000_000_000).toISOString() });
    const [update] = double.requests.slice(before);
    expect([update.method, update.path, update.params]).toEqual(['POST', `/v1/subscriptions/${id}`, { cancel_at_period_end: 'true' }]);

    const customer = double.subscriptions.get(id)!.customer;
    expect(double.customers.get(customer)).toMatchObject({ email: 'stripecarol@example.com' });
    const deletion = await request(app.baseUrl, 'DELETE', '/api/users-permissions/users/delete-account', { token: carol.jwt });
    expect(deletion.status).toBe(200);
    expect(double.requestsTo('DELETE', `/v1/subscriptions/${id}`)).toHaveLength(1);
    expect(double.subscriptions.get(id)!.status).toBe('canceled');
    expect(await app.strapi.db.query('api::subscription.subscription').count({ where: { stripe_subscription_id: id } })).toBe(0);
    // The customer, which holds the member's e-mail, is deleted at Stripe too, after the subscription.
    expect(double.requestsTo('DELETE', `/v1/customers/${customer}`)).toHaveLength(1);
    expect(double.deletedCustomers).toContain(customer);
    expect(double.customers.has(customer)).toBe(false);
    expect([...double.customers.values()].some((c) => c.email === 'stripecarol@example.com')).toBe(false);
  });

  it('deletes the customer of a member who never paid', async () => {
    const eve = await app.register('stripeeve');
    const created = await request<{ subscriptionId: string }>(app.baseUrl, 'POST', '/api/subscriptions', {
      token: eve.jwt,
      body: { priceId: 'price_test_monthly' },
    });
    const customer = double.subscriptions.get(created.body.subscriptionId)!.customer;
    const deletion = await request(app.baseUrl, 'DELETE', '/api/users-permissions/users/delete-account', { token: eve.jwt });
    expect(deletion.status).toBe(200);
    expect(double.requestsTo('DELETE', `/v1/customers/${customer}`)).toHaveLength(1);
    expect(double.customers.has(customer)).toBe(false);
    expect(double.subscriptions.get(created.body.subscriptionId)!.status).toBe('incomplete_expired');
  });

  it('keeps the account, its records and the customer when Stripe cannot delete the customer', async () => {
    const fred = await app.register('stripefred');
    const created = await request<{ subscriptionId: string }>(app.baseUrl, 'POST', '/api/subscriptions', {
      token: fred.jwt,
      body: { priceId: 'price_test_monthly' },
    });
    const id = created.body.subscriptionId;
    const customer = double.subscriptions.get(id)!.customer;
    double.subscriptions.get(id)!.status = 'active';

    // Stripe answers 500 to the customer's deletion, retries included.
    double.failNext(500, { type: 'api_error', message: 'down' }, 3, { method: 'DELETE', pathPrefix: '/v1/customers/' });
    const deletion = await request(app.baseUrl, 'DELETE', '/api/users-permissions/users/delete-account', { token: fred.jwt });
    double.clearFailure();
    expect(deletion.status).toBe(500);
    expect(double.requestsTo('DELETE', `/v1/customers/${customer}`)).toHaveLength(3);
    expect(double.customers.has(customer)).toBe(true);

    const users = app.strapi.db.query('plugin::users-permissions.user');
    expect(await users.findOne({ where: { id: fred.id } })).toMatchObject({
      email: 'stripefred@example.com',
      stripeCustomerId: customer,
    });
    // The record stays, and says what Stripe did (the subscription was canceled before the failure).
    const row = await app.strapi.db.query('api::subscription.subscription').findOne({ where: { stripe_subscription_id: id } });
    expect(row).toMatchObject({ status: 'canceled' });
    const login = await app.login('stripefred@example.com', fred.password);
    expect(login.status).toBe(200);
    expect(login.body.user.id).toBe(fred.id);

    // Once Stripe answers again, the deletion goes through.
    const retry = await request(app.baseUrl, 'DELETE', '/api/users-permissions/users/delete-account', { token: login.body.jwt });
    expect(retry.status).toBe(200);
    expect(double.customers.has(customer)).toBe(false);
    expect(await users.count({ where: { id: fred.id } })).toBe(0);
  });

  it('answers simultaneous purchases with one payable Stripe subscription', async () => {
    const gus = await app.register('stripegus');
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        request<{ clientSecret: string; subscriptionId: string } & ApiError>(app.baseUrl, 'POST', '/api/subscriptions', {
          token: gus.jwt,
          body: { priceId: 'price_test_monthly' },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    const user = await app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { id: gus.id } });
    const atStripe = [...double.subscriptions.values()].filter((sub) => sub.customer === user.stripeCustomerId);
    // One customer, and of its subscriptions exactly one can still be paid: the one whose secret the last answers carry.
    expect(
      double.requests.filter((r) => r.method === 'POST' && r.path === '/v1/customers' && r.params.email === 'stripegus@example.com'),
    ).toHaveLength(1);
    const open = atStripe.filter((sub) => sub.status === 'incomplete');
    expect(open).toHaveLength(1);
    expect(atStripe.filter((sub) => sub !== open[0]).every((sub) => sub.status === 'incomplete_expired')).toBe(true);
    const payable = new Set(answers.map((a) => a.body.clientSecret).filter((secret) => secret === open[0].clientSecret));
    expect(payable.size).toBe(1);
    const rows = (await app.strapi.db.query('api::subscription.subscription').findMany({ where: { user: { id: gus.id } } })) as {
      status: string;
      stripe_subscription_id: string;
    }[];
    expect(rows.filter((r) => r.status === 'incomplete').map((r) => r.stripe_subscription_id)).toEqual([open[0].id]);
  });

  describe('resuming a cancelled plan while a newer purchase waits for payment', () => {
    /** A member with a paid plan set to cancel at period end, and a newer purchase still unpaid. */
    const setUp = async (username: string) => {
      const member = await app.register(username);
      const buy = (priceId: string) =>
        request<{ subscriptionId: string }>(app.baseUrl, 'POST', '/api/subscriptions', { token: member.jwt, body: { priceId } });
      const first = (await buy('price_test_monthly')).body.subscriptionId;
      double.subscriptions.get(first)!.status = 'active';
      expect((await request(app.baseUrl, 'GET', `/api/subscriptions/${first}/verify`, { token: member.jwt })).status).toBe(200);
      expect((await request(app.baseUrl, 'POST', '/api/subscriptions/cancel', { token: member.jwt })).status).toBe(200);
      const second = (await buy('price_test_yearly')).body.subscriptionId;
      expect(double.subscriptions.get(second)!.status).toBe('incomplete');
      const resume = () =>
        request<ApiError & { cancel_at_period_end: boolean }>(app.baseUrl, 'POST', '/api/subscriptions/resume', { token: member.jwt });
      return { member, first, second, resume };
    };

    it('voids the unpaid purchase before ending it, then resumes', async () => {
      const { first, second, resume } = await setUp('stripehal');
      const res = await resume();
      expect([res.status, res.body.cancel_at_period_end]).toEqual([200, false]);
      const newer = double.subscriptions.get(second)!;
      expect([newer.invoiceVoided, newer.status]).toEqual([true, 'incomplete_expired']);
      expect(double.subscriptions.get(first)!.cancel_at_period_end).toBe(false);
      const voided = double.requests.findIndex((r) => r.method === 'POST' && r.path === `/v1/invoices/${newer.invoiceId}/void`);
      const ended = double.requests.findIndex((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${second}`);
      expect(voided).toBeGreaterThan(-1);
      expect(ended).toBeGreaterThan(voided);
    });

    it('never cancels a purchase paid in the browser at that very moment, and refuses to resume', async () => {
      const { first, second, resume } = await setUp('stripeivy');
      const newer = double.subscriptions.get(second)!;
      // The member's card payment lands at Stripe just as the server voids the invoice.
      double.onRequest((method, path) => {
        if (method === 'POST' && path === `/v1/invoices/${newer.invoiceId}/void`) newer.status = 'active';
      });
      const res = await resume();
      double.onRequest(null);
      expect([res.status, res.body.error?.message]).toEqual([409, 'You already have an active subscription.']);
      expect(double.subscriptions.get(second)!.status).toBe('active');
      expect(double.requestsTo('DELETE', `/v1/subscriptions/${second}`)).toEqual([]);
      expect(double.subscriptions.get(first)!.cancel_at_period_end).toBe(true);
      const row = await app.strapi.db.query('api::subscription.subscription').findOne({ where: { stripe_subscription_id: second } });
      expect(row.status).toBe('active');
    });
  });

  it('buying the plan set to cancel again resumes it at Stripe and creates no second subscription', async () => {
    const kim = await app.register('stripekim');
    const buy = () =>
      request<{ subscriptionId: string; clientSecret: string | null } & ApiError>(app.baseUrl, 'POST', '/api/subscriptions', {
        token: kim.jwt,
        body: { priceId: 'price_test_monthly' },
      });
    const first = (await buy()).body.subscriptionId;
    double.subscriptions.get(first)!.status = 'active';
    expect((await request(app.baseUrl, 'GET', `/api/subscriptions/${first}/verify`, { token: kim.jwt })).status).toBe(200);
    expect((await request(app.baseUrl, 'POST', '/api/subscriptions/cancel', { token: kim.jwt })).status).toBe(200);
    const customer = double.subscriptions.get(first)!.customer;
    const before = double.requests.length;

    const again = await buy();
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toEqual({ clientSecret: null, subscriptionId: first });
    // One call to Stripe: the cancel undone on the subscription already paid for; no new subscription, no invoice.
    const calls = double.requests.slice(before).filter((r) => r.method !== 'GET');
    expect(calls.map((r) => [r.method, r.path, r.params])).toEqual([
      ['POST', `/v1/subscriptions/${first}`, { cancel_at_period_end: 'false' }],
    ]);
    expect([...double.subscriptions.values()].filter((sub) => sub.customer === customer)).toHaveLength(1);
    expect(double.subscriptions.get(first)!.cancel_at_period_end).toBe(false);
    const rows = (await app.strapi.db.query('api::subscription.subscription').findMany({ where: { user: { id: kim.id } } })) as {
      stripe_subscription_id: string;
      cancel_at_period_end: boolean;
    }[];
    expect(rows.map((row) => [row.stripe_subscription_id, row.cancel_at_period_end])).toEqual([[first, false]]);
  });

  it('keeps the account when Stripe cannot cancel its subscription', async () => {
    const dan = await app.register('stripedan');
    const created = await request<{ subscriptionId: string }>(app.baseUrl, 'POST', '/api/subscriptions', {
      token: dan.jwt,
      body: { priceId: 'price_test_monthly' },
    });
    double.subscriptions.get(created.body.subscriptionId)!.status = 'active';
    double.failNext(500, { type: 'api_error', message: 'down' }, 3);
    const deletion = await request(app.baseUrl, 'DELETE', '/api/users-permissions/users/delete-account', { token: dan.jwt });
    double.clearFailure();
    expect(deletion.status).toBe(500);
    expect(double.subscriptions.get(created.body.subscriptionId)!.status).toBe('active');
    expect(await app.strapi.db.query('plugin::users-permissions.user').count({ where: { id: dan.id } })).toBe(1);
  });
});
