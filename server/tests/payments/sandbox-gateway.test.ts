import { describe, it, expect } from 'vitest';
import { GatewayError } from '../../src/payments/gateway';
import { SANDBOX_CARDS } from '../../src/contract/sandboxCard';
import { SandboxCardError, SandboxGateway, validateSandboxCard, type SandboxStorage } from '../../src/payments/sandbox-gateway';

/**
 * The sandbox payment gateway on its own (no Strapi): a Map for storage and a clock the test moves.
 * The same gateway behind HTTP is in api/subscription/subscriptions.test.ts.
 */

const START = new Date('2026-01-31T10:00:00.000Z');
const PAY = { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' };
const HOUR = 60 * 60 * 1000;

function sandbox() {
  const map = new Map<string, unknown>();
  const storage: SandboxStorage = {
    get: async <T>(key: string) => (map.has(key) ? (structuredClone(map.get(key)) as T) : null),
    set: async (key, value) => void map.set(key, structuredClone(value)),
    delete: async (key) => void map.delete(key),
  };
  let now = START;
  const gateway = new SandboxGateway({
    storage,
    lookupPrice: async (priceId) => (priceId === 'price_month' ? { interval: 'month', amount: 999, currency: 'eur' } : null),
    now: () => now,
  });
  const later = (ms: number) => (now = new Date(now.getTime() + ms));
  return { gateway, later };
}

/** A customer with a subscription awaiting its first payment. */
async function started() {
  const box = sandbox();
  const { customerId } = await box.gateway.createCustomer({
    email: 'alice@example.com',
    userId: 1,
    userDocumentId: 'alice',
    username: 'alice',
  });
  const created = await box.gateway.createSubscription(customerId, 'price_month');
  return { ...box, customerId, created };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe('validateSandboxCard', () => {
  it('answers the paying number without spaces or dashes', () => {
    expect(validateSandboxCard(PAY, START).cardNumber).toBe(SANDBOX_CARDS.success);
    expect(validateSandboxCard({ ...PAY, cardNumber: '5555-5555-5555-4444' }, START).cardNumber).toBe('5555555555554444');
  });

  it.each([
    [{ cardNumber: '4111111111111111' }, 'incorrect_number', 'Your card number is incorrect.'],
    [{ expiry: '1230' }, 'incomplete_expiry', "Your card's expiration date is incomplete. Use MM/YY."],
    [{ expiry: '13/30' }, 'invalid_expiry_month', "Your card's expiration month is invalid."],
    [{ expiry: '12/25' }, 'expired_card', "Your card's expiration date is in the past."],
    [{ cvc: '12' }, 'incomplete_cvc', "Your card's security code is incomplete. Enter 3 or 4 digits."],
  ])('refuses %o with 400 %s', (change, code, message) => {
    expect(() => validateSandboxCard({ ...PAY, ...change }, START)).toThrow(expect.objectContaining({ status: 400, code, message }));
  });

  it('takes a card through the last day of its expiry month', () => {
    expect(validateSandboxCard({ ...PAY, expiry: '01/26' }, START).cardNumber).toBe(SANDBOX_CARDS.success);
    expect(() => validateSandboxCard({ ...PAY, expiry: '01/26' }, new Date('2026-02-01T00:00:00.000Z'))).toThrow(SandboxCardError);
  });
});

describe('a subscription in the sandbox', () => {
  it('refuses an unknown price or customer', async () => {
    const { gateway, customerId } = await started();
    expect(await refusal(gateway.createSubscription(customerId, 'price_unknown'))).toMatchObject({ kind: 'invalid_request' });
    expect(await refusal(gateway.createSubscription('cus_nobody', 'price_month'))).toMatchObject({ kind: 'not_found' });
  });

  it('waits for its first payment: a declined card leaves it incomplete, a paying one makes it active for a month', async () => {
    const { gateway, customerId, created } = await started();
    expect(created.status).toBe('incomplete');
    expect(await gateway.paymentSecret(created.subscriptionId)).toBe(created.clientSecret);

    const declined = await refusal(
      gateway.confirmPayment({ ...PAY, cardNumber: SANDBOX_CARDS.declined, clientSecret: created.clientSecret }),
    );
    expect(declined).toMatchObject({ status: 402, code: 'card_declined', message: 'Your card was declined.' });
    expect((await gateway.retrieveSubscription(created.subscriptionId)).status).toBe('incomplete');
    expect(await gateway.cardOnFile(customerId)).toBeNull();

    const paid = await gateway.confirmPayment({ ...PAY, clientSecret: created.clientSecret });
    expect(paid).toEqual({
      paymentIntent: { id: expect.stringMatching(/^pi_sandbox_/), status: 'succeeded' },
      subscriptionId: created.subscriptionId,
    });
    const active = await gateway.retrieveSubscription(created.subscriptionId);
    expect(active).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, startDate: START });
    // Clamped to the month's last day, as Stripe's billing anchor.
    expect(active.currentPeriodEnd?.toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(await gateway.cardOnFile(customerId)).toEqual({ brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 });
    expect(await gateway.paymentSecret(created.subscriptionId)).toBeNull();
    // Confirming again pays nothing twice.
    expect(await gateway.confirmPayment({ ...PAY, clientSecret: created.clientSecret })).toEqual(paid);
  });

  it('refuses a forged client secret', async () => {
    const { gateway, created } = await started();
    const forged = `${created.clientSecret!.slice(0, -1)}${created.clientSecret!.endsWith('0') ? '1' : '0'}`;
    expect(await refusal(gateway.confirmPayment({ ...PAY, clientSecret: forged }))).toMatchObject({
      status: 400,
      code: 'payment_intent_invalid',
    });
    expect(await gateway.subscriptionOfSecret(created.clientSecret)).toBe(created.subscriptionId);
    expect(await gateway.subscriptionOfSecret('pi_sandbox_00_secret_00')).toBeNull();
  });

  it('expires unpaid after 23 hours, after which it cannot be paid', async () => {
    const { gateway, created, later } = await started();
    later(23 * HOUR);
    expect((await gateway.retrieveSubscription(created.subscriptionId)).status).toBe('incomplete');
    later(1);
    expect((await gateway.retrieveSubscription(created.subscriptionId)).status).toBe('incomplete_expired');
    expect(await gateway.paymentSecret(created.subscriptionId)).toBeNull();
    expect(await refusal(gateway.confirmPayment({ ...PAY, clientSecret: created.clientSecret }))).toMatchObject({
      status: 400,
      code: 'payment_intent_unexpected_state',
    });
  });

  it('renews when read past its period end, one paid invoice a period, newest first, each with its receipt', async () => {
    const { gateway, customerId, created, later } = await started();
    await gateway.confirmPayment({ ...PAY, clientSecret: created.clientSecret });
    later(40 * 24 * HOUR);
    const renewed = await gateway.retrieveSubscription(created.subscriptionId);
    expect(renewed.status).toBe('active');
    expect(renewed.currentPeriodEnd?.toISOString()).toBe('2026-03-28T10:00:00.000Z');

    const page = await gateway.listInvoices(customerId, 0, 10);
    expect(page.hasMore).toBe(false);
    expect(page.invoices.map((invoice) => [invoice.periodStart, invoice.amount, invoice.currency, invoice.status])).toEqual([
      ['2026-02-28T10:00:00.000Z', 999, 'eur', 'paid'],
      ['2026-01-31T10:00:00.000Z', 999, 'eur', 'paid'],
    ]);
    expect(await gateway.listInvoices(customerId, 0, 1)).toMatchObject({ hasMore: true, invoices: [page.invoices[0]] });

    const [newest] = page.invoices;
    expect(newest.receiptUrl).toBe(`/api/payments/sandbox/receipts/${newest.id}`);
    expect(await gateway.receipt(newest.id)).toEqual({ invoice: newest, priceId: 'price_month', interval: 'month' });
    const forged = newest.id.replace(/.$/, (last) => (last === '0' ? '1' : '0'));
    expect(await gateway.receipt(forged)).toBeNull();
    expect(await gateway.receipt(42)).toBeNull();
  });

  it('set to cancel, ends at its period end; an ended one can be neither resumed nor cancelled again', async () => {
    const { gateway, created, later } = await started();
    await gateway.confirmPayment({ ...PAY, clientSecret: created.clientSecret });
    const cancelling = await gateway.cancelAtPeriodEnd(created.subscriptionId);
    expect(cancelling).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, cancelAt: cancelling.currentPeriodEnd });
    expect(await gateway.resume(created.subscriptionId)).toMatchObject({ cancelAtPeriodEnd: false, cancelAt: null });
    await gateway.cancelAtPeriodEnd(created.subscriptionId);

    later(31 * 24 * HOUR);
    expect((await gateway.retrieveSubscription(created.subscriptionId)).status).toBe('canceled');
    const resumed = await refusal(gateway.resume(created.subscriptionId));
    expect(resumed).toBeInstanceOf(GatewayError);
    expect(resumed).toMatchObject({ kind: 'invalid_request', message: 'A canceled subscription cannot be resumed.' });
  });

  it('ends with its deleted customer, whose invoices and receipts go too', async () => {
    const { gateway, customerId, created } = await started();
    await gateway.confirmPayment({ ...PAY, clientSecret: created.clientSecret });
    const [invoice] = (await gateway.listInvoices(customerId, 0, 10)).invoices;
    await gateway.deleteCustomer(customerId);
    expect((await gateway.retrieveSubscription(created.subscriptionId)).status).toBe('canceled');
    expect(await gateway.listInvoices(customerId, 0, 10)).toEqual({ invoices: [], hasMore: false });
    expect(await gateway.receipt(invoice.id)).toBeNull();
  });

  it('replaces the card on file, but never with the declined card', async () => {
    const { gateway, customerId, created } = await started();
    await gateway.confirmPayment({ ...PAY, clientSecret: created.clientSecret });
    expect(await gateway.updateCard(customerId, { ...PAY, cardNumber: '5555555555554444', expiry: '03/29' })).toEqual({ last4: '4444' });
    expect(await gateway.cardOnFile(customerId)).toEqual({ brand: 'mastercard', last4: '4444', expMonth: 3, expYear: 2029 });
    expect(await refusal(gateway.updateCard(customerId, { ...PAY, cardNumber: SANDBOX_CARDS.declined }))).toMatchObject({ status: 402 });
    expect((await gateway.cardOnFile(customerId))?.last4).toBe('4444');
  });
});
