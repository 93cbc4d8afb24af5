import { beforeEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { planOffers, subscriptionOverviewMachine } from '../../../machines/subscriptionOverview.machine';
import {
  blocksPurchase,
  type CurrentSubscriptionAnswer,
  type PaymentsConfig,
  type SubscriptionPlan,
  type SubscriptionStatus,
} from '../../../server/src/contract/subscriptions';
import { deferredCalls } from '../../support/deferred';
import { activeSubscription, monthlyPlan, retiredPlan, sandboxPayments } from '../../support/subscriptionFixtures';
import { nextTick } from './machineTestKit';

type CallOptions = { signal?: AbortSignal } | undefined;
let plans: ReturnType<typeof deferredCalls<CallOptions, SubscriptionPlan[]>>;
let current: ReturnType<typeof deferredCalls<CallOptions, CurrentSubscriptionAnswer | null>>;
let payments: ReturnType<typeof deferredCalls<CallOptions, PaymentsConfig>>;

beforeEach(() => {
  plans = deferredCalls();
  current = deferredCalls();
  payments = deferredCalls();
});

/** API doubles: each call is queued with the options the machine's actor passed, for the test to settle. */
const machine = subscriptionOverviewMachine.provide({
  actors: {
    loadPlans: fromPromise<SubscriptionPlan[]>(({ signal }) => plans.handler({ signal })),
    loadCurrent: fromPromise<CurrentSubscriptionAnswer | null>(({ signal }) => current.handler({ signal })),
    loadPayments: fromPromise<PaymentsConfig>(({ signal }) => payments.handler({ signal })),
  },
});

function start() {
  return createActor(machine).start();
}

async function loadAll() {
  const actor = start();
  plans.last().settle.resolve([monthlyPlan]);
  current.last().settle.resolve(activeSubscription);
  payments.last().settle.resolve(sandboxPayments);
  await nextTick();
  return actor;
}

const callCounts = () => [plans.calls.length, current.calls.length, payments.calls.length];

describe('subscriptionOverview (SPEC §2 Subscriptions tab, §7, §8)', () => {
  it('loads plans, the current subscription and the payment mode side by side, each with its own signal', () => {
    const actor = start();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual({ plans: 'loading', current: 'loading', payments: 'loading' });
    expect(snapshot.hasTag('loading')).toBe(true);
    expect(snapshot.context).toEqual({
      plans: [],
      current: null,
      payments: null,
      plansError: null,
      currentError: null,
      paymentsError: null,
    });
    expect(plans.last().input).toEqual({ signal: expect.any(AbortSignal) });
    expect(current.last().input).toEqual({ signal: expect.any(AbortSignal) });
    expect(payments.last().input).toEqual({ signal: expect.any(AbortSignal) });
    // The path tests settle each call by its done and error events, which carry these names.
    expect(Object.keys(snapshot.children).sort()).toEqual(['loadCurrent', 'loadPayments', 'loadPlans']);
  });

  it('keeps the loading tag while any one of the three is still loading', async () => {
    for (const pending of [plans, current, payments]) {
      const actor = start();
      if (pending !== plans) plans.last().settle.resolve([monthlyPlan]);
      if (pending !== current) current.last().settle.resolve(null);
      if (pending !== payments) payments.last().settle.resolve(sandboxPayments);
      await nextTick();
      expect(actor.getSnapshot().hasTag('loading')).toBe(true);
      pending.last().settle.reject(new Error('down'));
      await nextTick();
      expect(actor.getSnapshot().hasTag('loading')).toBe(false);
    }
  });

  it('holds what the server answered once all three arrive', async () => {
    const actor = await loadAll();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual({ plans: 'loaded', current: 'loaded', payments: 'ready' });
    expect(snapshot.hasTag('loading')).toBe(false);
    expect(snapshot.context).toEqual({
      plans: [monthlyPlan],
      current: activeSubscription,
      payments: sandboxPayments,
      plansError: null,
      currentError: null,
      paymentsError: null,
    });
  });

  it("shows each failure on its own: the server's message, else 'Failed to load subscription plans', 'Failed to load current subscription', 'Payments are unavailable right now.'", async () => {
    const actor = start();
    plans.last().settle.reject(new Error('Failed to load subscription plans: 503'));
    current.last().settle.reject(new Error(''));
    payments.last().settle.resolve(sandboxPayments);
    await nextTick();
    expect(actor.getSnapshot().value).toEqual({ plans: 'failed', current: 'failed', payments: 'ready' });
    expect(actor.getSnapshot().context).toMatchObject({
      plansError: 'Failed to load subscription plans: 503',
      currentError: 'Failed to load current subscription',
      paymentsError: null,
    });

    const other = start();
    plans.last().settle.reject(new Error(''));
    current.last().settle.resolve(null);
    payments.last().settle.reject(new Error(''));
    await nextTick();
    expect(other.getSnapshot().value).toEqual({ plans: 'failed', current: 'loaded', payments: 'failed' });
    expect(other.getSnapshot().context).toMatchObject({
      plansError: 'Failed to load subscription plans',
      currentError: null,
      paymentsError: 'Payments are unavailable right now.',
    });

    const third = start();
    plans.last().settle.resolve([]);
    current.last().settle.resolve(null);
    payments.last().settle.reject(new Error('Payments are switched off'));
    await nextTick();
    expect(third.getSnapshot().context.paymentsError).toBe('Payments are switched off');
  });

  it('reloads the current subscription when a purchase or cancellation changed it', async () => {
    const actor = await loadAll();
    actor.send({ type: 'subscription.changed' });
    expect(actor.getSnapshot().matches({ current: 'loading' })).toBe(true);
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    expect(current.calls).toHaveLength(2);
    expect(current.last().input).toEqual({ signal: expect.any(AbortSignal) });

    const cancelling = { ...activeSubscription, cancel_at_period_end: true };
    plans.last().settle.resolve([monthlyPlan]);
    payments.last().settle.resolve(sandboxPayments);
    current.last().settle.resolve(cancelling);
    await nextTick();
    expect(actor.getSnapshot().value).toEqual({ plans: 'loaded', current: 'loaded', payments: 'ready' });
    expect(actor.getSnapshot().context.current).toEqual(cancelling);
  });

  it('leaves plans and the payment mode loaded when the current subscription changed', async () => {
    const actor = await loadAll();
    actor.send({ type: 'subscription.changed' });
    expect(actor.getSnapshot().value).toEqual({ plans: 'loaded', current: 'loading', payments: 'ready' });
    expect(callCounts()).toEqual([1, 2, 1]);
  });

  it('ignores Retry when nothing failed', async () => {
    const actor = await loadAll();
    actor.send({ type: 'overview.retried' });
    expect(actor.getSnapshot().value).toEqual({ plans: 'loaded', current: 'loaded', payments: 'ready' });
    expect(callCounts()).toEqual([1, 1, 1]);
  });

  it.each([
    ['plans', 0],
    ['current subscription', 1],
    ['payment mode', 2],
  ])('Retry after only the %s failed loads all three again and clears the error on success', async (_, failing) => {
    const actor = start();
    const failure = new Error('');
    if (failing === 0) plans.last().settle.reject(failure);
    else plans.last().settle.resolve([monthlyPlan]);
    if (failing === 1) current.last().settle.reject(failure);
    else current.last().settle.resolve(activeSubscription);
    if (failing === 2) payments.last().settle.reject(failure);
    else payments.last().settle.resolve(sandboxPayments);
    await nextTick();
    expect(actor.getSnapshot().hasTag('loading')).toBe(false);

    actor.send({ type: 'overview.retried' });
    expect(actor.getSnapshot().value).toEqual({ plans: 'loading', current: 'loading', payments: 'loading' });
    expect(callCounts()).toEqual([2, 2, 2]);

    plans.last().settle.resolve([monthlyPlan]);
    current.last().settle.resolve(null);
    payments.last().settle.resolve(sandboxPayments);
    await nextTick();
    expect(actor.getSnapshot().value).toEqual({ plans: 'loaded', current: 'loaded', payments: 'ready' });
    expect(actor.getSnapshot().context).toMatchObject({ current: null, plansError: null, currentError: null, paymentsError: null });
  });

  describe('planOffers: each plan as the server would treat buying it now (SPEC §6)', () => {
    const yearlyPlan: SubscriptionPlan = {
      ...monthlyPlan,
      id: 2,
      name: 'Carnivo Yearly',
      stripe_price_id: 'price_yearly',
      duration: 'year',
    };
    const subscription = (status: SubscriptionStatus, cancelAtPeriodEnd = false): CurrentSubscriptionAnswer => ({
      ...activeSubscription,
      status,
      cancel_at_period_end: cancelAtPeriodEnd,
    });
    async function offersWith(member: CurrentSubscriptionAnswer | null) {
      const actor = start();
      plans.last().settle.resolve([monthlyPlan, yearlyPlan, retiredPlan]);
      current.last().settle.resolve(member);
      await nextTick();
      const { offers, blockedBy } = planOffers(actor.getSnapshot());
      return { offers: offers.map(({ plan, isCurrent, offer }) => [plan.name, isCurrent, offer]), blockedBy, actor };
    }

    it('offers every active plan to a member without a subscription; a retired plan has no button', async () => {
      expect(await offersWith(null)).toMatchObject({
        offers: [
          ['Carnivo Monthly', false, 'open'],
          ['Carnivo Yearly', false, 'open'],
          ['Carnivo Founders', false, 'none'],
        ],
        blockedBy: null,
      });
    });

    it.each(['active', 'trialing', 'past_due', 'unpaid', 'paused'] as const)(
      "marks the plan of a %s subscription as current and blocks the others with 'You already have an active subscription.'",
      async (status) => {
        expect(blocksPurchase(subscription(status))).toBe(true);
        expect(await offersWith(subscription(status))).toMatchObject({
          offers: [
            ['Carnivo Monthly', true, 'none'],
            ['Carnivo Yearly', false, 'blocked'],
            ['Carnivo Founders', false, 'none'],
          ],
          blockedBy: 'You already have an active subscription.',
        });
      },
    );

    it('marks the current plan but blocks nothing once it is set to cancel at period end: the server sells a new plan then', async () => {
      expect(blocksPurchase(subscription('active', true))).toBe(false);
      expect(await offersWith(subscription('active', true))).toMatchObject({
        offers: [
          ['Carnivo Monthly', true, 'open'],
          ['Carnivo Yearly', false, 'open'],
          ['Carnivo Founders', false, 'none'],
        ],
        blockedBy: null,
      });
    });

    it.each(['incomplete', 'canceled', 'incomplete_expired'] as const)('neither marks nor blocks for a %s subscription', async (status) => {
      expect(blocksPurchase(subscription(status))).toBe(false);
      const { offers } = await offersWith(subscription(status));
      // An unpaid attempt is not the member's plan yet, an ended one no longer is.
      expect(offers[0]).toEqual(['Carnivo Monthly', false, 'open']);
      expect(offers[1]).toEqual(['Carnivo Yearly', false, 'open']);
    });

    it('marks nothing for a subscription whose plan was deleted, and blocks while the subscription (re)loads', async () => {
      const { offers, actor } = await offersWith({ ...activeSubscription, plan: null });
      expect(offers.map(([, isCurrent]) => isCurrent)).toEqual([false, false, false]);
      const cancelling = await offersWith(subscription('active', true));
      cancelling.actor.send({ type: 'subscription.changed' });
      expect(planOffers(cancelling.actor.getSnapshot()).offers.map(({ offer }) => offer)).toEqual(['blocked', 'blocked', 'none']);
      actor.stop();
    });
  });
});
