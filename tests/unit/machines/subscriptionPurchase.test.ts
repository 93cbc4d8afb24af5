import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise, setup, type AnyEventObject } from 'xstate';
import type { PaymentMethodInput } from '../../../machines/services/confirmPayment';
import {
  PAYMENT_FALLBACK,
  SUBSCRIPTION_SUCCESS_MESSAGE,
  subscriptionPurchaseMachine,
} from '../../../machines/subscriptionPurchase.machine';
import type { CreateSubscriptionResponse } from '../../../server/src/contract/subscriptions';
import { deferredCalls } from '../../support/deferred';
import { monthlyPlan, retiredPlan } from '../../support/subscriptionFixtures';
import { nextTick } from './machineTestKit';
import { SUCCESS_NOTICE_MS } from '../../../machines/shared/notice';

type CallOptions = { signal?: AbortSignal };

/** API doubles, shaped like the service calls the machine's actors make; each call is queued for the test to settle. */
const createSubscription = vi.fn<(priceId: string, options: CallOptions) => Promise<CreateSubscriptionResponse>>();
const confirmCardPayment = vi.fn<(clientSecret: string, method: PaymentMethodInput) => Promise<{ status: string }>>();
const verifySubscription = vi.fn<(subscriptionId: string, options: CallOptions) => Promise<void>>();
const machine = subscriptionPurchaseMachine.provide({
  actors: {
    createSubscription: fromPromise<CreateSubscriptionResponse, { priceId: string }>(({ input, signal }) =>
      createSubscription(input.priceId, { signal }),
    ),
    confirmPayment: fromPromise<{ status: string }, { clientSecret: string; method: PaymentMethodInput }>(({ input }) =>
      confirmCardPayment(input.clientSecret, input.method),
    ),
    verifySubscription: fromPromise<void, { subscriptionId: string }>(({ input, signal }) =>
      verifySubscription(input.subscriptionId, { signal }),
    ),
  },
});

let creates: ReturnType<typeof deferredCalls<CallOptions, CreateSubscriptionResponse>>;
let confirms: ReturnType<typeof deferredCalls<PaymentMethodInput, { status: string }>>;
let verifies: ReturnType<typeof deferredCalls<CallOptions, void>>;

beforeEach(() => {
  creates = deferredCalls();
  confirms = deferredCalls();
  verifies = deferredCalls();
  createSubscription.mockReset().mockImplementation((_priceId, options) => creates.handler(options));
  confirmCardPayment.mockReset().mockImplementation((_clientSecret, method) => confirms.handler(method));
  verifySubscription.mockReset().mockImplementation((_subscriptionId, options) => verifies.handler(options));
});

/** The flow runs under a stand-in for the Subscriptions tab, which records what the flow tells it. */
function start() {
  const told: AnyEventObject[] = [];
  const started: AnyEventObject[] = [];
  const tab = setup({ actors: { purchase: machine } }).createMachine({
    invoke: { id: 'purchase', src: 'purchase' },
    on: {
      'subscription.changed': { actions: ({ event }) => told.push(event) },
      'purchase.started': { actions: ({ event }) => started.push(event) },
    },
  });
  const clock = new SimulatedClock();
  const parent = createActor(tab, { clock }).start();
  const actor = parent.getSnapshot().children.purchase!;
  return { actor, clock, told, started };
}
type Purchase = ReturnType<typeof start>['actor'];

const card: PaymentMethodInput = { kind: 'sandbox', card: { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' } };

async function openPayment(actor: Purchase) {
  actor.send({ type: 'plan.chosen', plan: monthlyPlan });
  creates.last().settle.resolve({ clientSecret: 'cs_test_1', subscriptionId: 'sub_1' });
  await nextTick();
}

async function pay(actor: Purchase, status = 'succeeded') {
  await openPayment(actor);
  actor.send({ type: 'payment.submitted', method: card });
  confirms.last().settle.resolve({ status });
  await nextTick();
}

describe('subscriptionPurchase (SPEC §2 Subscriptions tab, §4 Subscription purchase, §6, §8, §9)', () => {
  it('choosing a plan asks the server to create a subscription for its price, busy meanwhile', () => {
    const { actor } = start();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ plan: null, clientSecret: null, subscriptionId: null, error: null });
    actor.send({ type: 'plan.chosen', plan: monthlyPlan });
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches('creating')).toBe(true);
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.hasTag('dialog')).toBe(false);
    expect(snapshot.context.plan).toEqual(monthlyPlan);
    expect(createSubscription).toHaveBeenCalledWith('price_monthly', { signal: expect.any(AbortSignal) });
    // The path tests settle each call by its done and error events, which carry the invoked actor's name.
    expect(Object.keys(snapshot.children)).toEqual(['createSubscription']);

    actor.send({ type: 'plan.chosen', plan: monthlyPlan });
    actor.send({ type: 'payment.dismissed' });
    expect(actor.getSnapshot().matches('creating')).toBe(true);
    expect(createSubscription).toHaveBeenCalledTimes(1);
  });

  it("leaves refusals to the server: a retired plan chosen anyway is asked for, and the server's answer shown", async () => {
    const { actor } = start();
    actor.send({ type: 'plan.chosen', plan: retiredPlan });
    expect(actor.getSnapshot().matches('creating')).toBe(true);
    expect(createSubscription).toHaveBeenCalledWith('price_founders', { signal: expect.any(AbortSignal) });
    creates.last().settle.reject(new Error('Failed to initiate subscription: This plan is no longer available.'));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to initiate subscription: This plan is no longer available.');
  });

  it('opens the payment modal with the clientSecret and subscriptionId the server returned', async () => {
    const { actor } = start();
    await openPayment(actor);
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches('paying')).toBe(true);
    expect(snapshot.hasTag('dialog')).toBe(true);
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context).toEqual({ plan: monthlyPlan, clientSecret: 'cs_test_1', subscriptionId: 'sub_1', error: null });
  });

  it("shows 'Failed to initiate subscription: {message}', or with 'Failed to create subscription' when the server said nothing", async () => {
    const { actor } = start();
    actor.send({ type: 'plan.chosen', plan: monthlyPlan });
    creates.last().settle.reject(new Error('Failed to initiate subscription: No such price'));
    await nextTick();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context.error).toBe('Failed to initiate subscription: No such price');

    actor.send({ type: 'plan.chosen', plan: monthlyPlan });
    expect(actor.getSnapshot().context.error).toBeNull();
    creates.last().settle.reject(new Error(''));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to initiate subscription: Failed to create subscription');
  });

  it('Cancel or close closes the modal and forgets the payment', async () => {
    const { actor, told } = start();
    await openPayment(actor);
    actor.send({ type: 'payment.dismissed' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(false);
    expect(actor.getSnapshot().context).toMatchObject({ clientSecret: null, subscriptionId: null, error: null });
    expect(confirmCardPayment).not.toHaveBeenCalled();
    expect(told).toEqual([]);
  });

  it('Pay Now confirms the card payment with the clientSecret, busy in the modal, ignoring Cancel meanwhile', async () => {
    const { actor } = start();
    await openPayment(actor);
    actor.send({ type: 'payment.submitted', method: card });
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches('confirming')).toBe(true);
    expect(snapshot.hasTag('dialog')).toBe(true);
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(confirmCardPayment).toHaveBeenCalledWith('cs_test_1', card);
    expect(Object.keys(snapshot.children)).toEqual(['confirmPayment']);

    actor.send({ type: 'payment.dismissed' });
    actor.send({ type: 'payment.submitted', method: card });
    expect(actor.getSnapshot().matches('confirming')).toBe(true);
    expect(confirmCardPayment).toHaveBeenCalledTimes(1);
  });

  it("on a succeeded payment verifies it, then shows 'Subscription successful!' for 3000 ms and has the tab reload", async () => {
    const { actor, clock, told } = start();
    await pay(actor);
    let snapshot = actor.getSnapshot();
    expect(snapshot.matches('verifying')).toBe(true);
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.hasTag('dialog')).toBe(true);
    expect(verifySubscription).toHaveBeenCalledWith('sub_1', { signal: expect.any(AbortSignal) });
    expect(Object.keys(snapshot.children)).toEqual(['verifySubscription']);
    expect(told).toEqual([]);

    verifies.last().settle.resolve();
    await nextTick();
    snapshot = actor.getSnapshot();
    expect(snapshot.matches('succeeded')).toBe(true);
    expect(snapshot.hasTag('success')).toBe(true);
    expect(snapshot.hasTag('dialog')).toBe(false);
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context.error).toBeNull();
    expect(told).toEqual([{ type: 'subscription.changed' }]);
    expect(SUBSCRIPTION_SUCCESS_MESSAGE).toBe('Subscription successful!');
    expect(SUCCESS_NOTICE_MS).toBe(3000);

    clock.increment(2999);
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('success')).toBe(false);
    expect(told).toHaveLength(1);
  });

  it('goes straight to verifying when the server answers clientSecret null (no first payment due)', async () => {
    const { actor, told } = start();
    actor.send({ type: 'plan.chosen', plan: monthlyPlan });
    creates.last().settle.resolve({ clientSecret: null, subscriptionId: 'sub_2' });
    await nextTick();
    expect(actor.getSnapshot().matches('verifying')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ clientSecret: null, subscriptionId: 'sub_2' });
    expect(confirmCardPayment).not.toHaveBeenCalled();
    expect(verifySubscription).toHaveBeenCalledWith('sub_2', { signal: expect.any(AbortSignal) });

    verifies.last().settle.resolve();
    await nextTick();
    expect(actor.getSnapshot().matches('succeeded')).toBe(true);
    expect(told).toEqual([{ type: 'subscription.changed' }]);
  });

  it("closes the modal with 'Payment failed' when the payment did not succeed, verifying nothing", async () => {
    const { actor, told } = start();
    await pay(actor, 'requires_payment_method');
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(false);
    expect(actor.getSnapshot().context.error).toBe('Payment failed');
    expect(verifySubscription).not.toHaveBeenCalled();
    expect(told).toEqual([]);
  });

  it("closes the modal with the provider's message, or 'An error occurred', when the payment throws", async () => {
    const { actor } = start();
    await openPayment(actor);
    actor.send({ type: 'payment.submitted', method: card });
    confirms.last().settle.reject(new Error('Your card was declined.'));
    await nextTick();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(false);
    expect(actor.getSnapshot().context.error).toBe('Your card was declined.');

    actor.send({ type: 'plan.chosen', plan: monthlyPlan });
    creates.last().settle.resolve({ clientSecret: 'cs_test_2', subscriptionId: 'sub_3' });
    await nextTick();
    actor.send({ type: 'payment.submitted', method: card });
    confirms.last().settle.reject(new Error(''));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('An error occurred');
    expect(PAYMENT_FALLBACK).toBe('An error occurred');
  });

  it("closes the modal with the verify error, or 'Failed to verify subscription', and still has the tab reload", async () => {
    const { actor, told } = start();
    await pay(actor);
    verifies.last().settle.reject(new Error('Subscription sub_1 is incomplete'));
    await nextTick();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(false);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context.error).toBe('Subscription sub_1 is incomplete');
    expect(told).toEqual([{ type: 'subscription.changed' }]);

    await pay(actor);
    verifies.last().settle.reject(new Error(''));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to verify subscription');
    expect(told).toHaveLength(2);
  });

  it('tells the tab when it asks the server for a subscription, so the other flows clear their messages', () => {
    const { actor, started } = start();
    expect(started).toEqual([]);
    actor.send({ type: 'plan.chosen', plan: monthlyPlan });
    expect(started).toEqual([{ type: 'purchase.started' }]);
  });

  it("gives way to another flow's outcome: 'notice.cleared' ends the success message at once", async () => {
    const { actor, clock } = start();
    await pay(actor);
    verifies.last().settle.resolve();
    await nextTick();
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    actor.send({ type: 'notice.cleared' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('success')).toBe(false);
    clock.increment(SUCCESS_NOTICE_MS);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
  });

  it("gives way to another flow's outcome: 'notice.cleared' clears the error, and is ignored mid-purchase", async () => {
    const { actor } = start();
    await pay(actor, 'requires_payment_method');
    expect(actor.getSnapshot().context.error).toBe('Payment failed');
    actor.send({ type: 'notice.cleared' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();

    await openPayment(actor);
    actor.send({ type: 'notice.cleared' });
    expect(actor.getSnapshot().matches('paying')).toBe(true);
  });
});
