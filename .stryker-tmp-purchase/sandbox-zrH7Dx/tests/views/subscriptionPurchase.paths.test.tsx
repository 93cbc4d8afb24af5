// @ts-nocheck
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { subscriptionOverviewMachine } from '../../machines/subscriptionOverview.machine';
import {
  SUBSCRIPTION_SUCCESS_MESSAGE,
  SUBSCRIPTION_SUCCESS_MS,
  purchaseRefusals,
  subscriptionPurchaseMachine,
} from '../../machines/subscriptionPurchase.machine';
import { ApiError } from '../../src/api/errors';
import type { CreateSubscriptionResponse, CurrentSubscription } from '../../server/src/contract/subscriptions';
import type { PaymentMethodInput } from '../../src/payments/confirmPayment';
import { deferredCalls } from '../support/deferred';
import { describePath, leafStateIds, transitionCoveringPaths, type ModelPath } from '../support/modelPaths';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';
import { settle } from '../support/settle';
import { activeSubscription, monthlyPlan, retiredPlan, sandboxPayments } from '../support/subscriptionFixtures';

const AFTER_SUCCESS = 'xstate.after.successMessage.subscriptionPurchase.succeeded';
const goodCard = { kind: 'sandbox', card: { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' } } as const;

const events: AnyEventObject[] = [
  { type: 'plan.chosen', plan: monthlyPlan, current: null, label: 'monthly' },
  { type: 'plan.chosen', plan: retiredPlan, current: null, label: 'retired' },
  { type: 'xstate.done.actor.createSubscription', output: { clientSecret: 'cs_test_1', subscriptionId: 'sub_1' } },
  // e.g. a free trial: the provider takes no first payment, so there is no card to confirm.
  { type: 'xstate.done.actor.createSubscription', output: { clientSecret: null, subscriptionId: 'sub_2' }, label: 'nothing to pay' },
  { type: 'xstate.error.actor.createSubscription', error: new ApiError('Failed to initiate subscription: This plan does not exist.', 400) },
  { type: 'payment.submitted', method: goodCard },
  { type: 'payment.dismissed' },
  { type: 'xstate.done.actor.confirmPayment', output: { status: 'succeeded' }, label: 'succeeded' },
  { type: 'xstate.done.actor.confirmPayment', output: { status: 'requires_payment_method' }, label: 'not succeeded' },
  { type: 'xstate.error.actor.confirmPayment', error: new ApiError('Your card was declined.', 402) },
  { type: 'xstate.done.actor.verifySubscription' },
  { type: 'xstate.error.actor.verifySubscription', error: new ApiError('Failed to verify subscription', 500) },
  { type: AFTER_SUCCESS },
];
const describeEvent = (event: AnyEventObject) => (event.label ? `${event.type}(${event.label})` : event.type);
// The graph walks the flow alone: its parent, the Subscriptions tab, is not there to be told.
const paths = transitionCoveringPaths(subscriptionPurchaseMachine.provide({ actions: { reloadSubscription: () => {} } }), {
  events,
  transitionKey: (state, event) => JSON.stringify([state.value, state.context.error === null, describeEvent(event)]),
});

function harness(current: CurrentSubscription | null = null) {
  const creates = deferredCalls<{ priceId: string }, CreateSubscriptionResponse>();
  const payments = deferredCalls<{ clientSecret: string; method: PaymentMethodInput }, { status: string }>();
  const verifications = deferredCalls<{ subscriptionId: string }, void>();
  const currentLoads = vi.fn(async () => current);
  const subscriptionPurchase = subscriptionPurchaseMachine.provide({
    actors: {
      createSubscription: fromPromise(({ input }: { input: { priceId: string } }) => creates.handler(input)),
      confirmPayment: fromPromise(({ input }: { input: { clientSecret: string; method: PaymentMethodInput } }) => payments.handler(input)),
      verifySubscription: fromPromise(({ input }: { input: { subscriptionId: string } }) => verifications.handler(input)),
    },
  });
  const subscriptionOverview = subscriptionOverviewMachine.provide({
    actors: {
      loadPlans: fromPromise(async () => [monthlyPlan, retiredPlan]),
      loadCurrent: fromPromise(currentLoads),
      loadPayments: fromPromise(async () => sandboxPayments),
    },
  });
  const page = renderProfile('subscriptions', { subscriptionPurchase, subscriptionOverview });
  return { ...page, creates, payments, verifications, currentLoads };
}
type Harness = ReturnType<typeof harness>;
const tab = () => screen.getByRole('region', { name: 'Subscriptions' });
const dialog = () => screen.queryByRole('dialog', { name: 'Complete your subscription' });

async function perform(event: AnyEventObject, page: Harness) {
  switch (event.type) {
    case 'plan.chosen':
      await page.user.click(within(tab()).getByRole('button', { name: `Subscribe to ${event.plan.name}` }));
      return;
    case 'payment.submitted': {
      const modal = dialog()!;
      await page.user.type(within(modal).getByLabelText('Card number'), event.method.card.cardNumber);
      await page.user.type(within(modal).getByLabelText('Expiry (MM/YY)'), event.method.card.expiry);
      await page.user.type(within(modal).getByLabelText('CVC'), event.method.card.cvc);
      await page.user.click(within(modal).getByRole('button', { name: 'Pay Now' }));
      return;
    }
    case 'payment.dismissed':
      await page.user.click(within(dialog()!).getByRole('button', { name: 'Cancel' }));
      return;
    case 'xstate.done.actor.createSubscription':
      page.creates.last().settle.resolve(event.output);
      return;
    case 'xstate.error.actor.createSubscription':
      page.creates.last().settle.reject(event.error);
      return;
    case 'xstate.done.actor.confirmPayment':
      page.payments.last().settle.resolve(event.output);
      return;
    case 'xstate.error.actor.confirmPayment':
      page.payments.last().settle.reject(event.error);
      return;
    case 'xstate.done.actor.verifySubscription':
      page.verifications.last().settle.resolve();
      return;
    case 'xstate.error.actor.verifySubscription':
      page.verifications.last().settle.reject(event.error);
      return;
    case AFTER_SUCCESS:
      await act(() => vi.advanceTimersByTimeAsync(SUBSCRIPTION_SUCCESS_MS - 1));
      expect(within(tab()).getByRole('status').textContent).toBe(SUBSCRIPTION_SUCCESS_MESSAGE);
      await act(() => vi.advanceTimersByTimeAsync(1));
      return;
    default:
      throw new Error(`No way to perform ${event.type}`);
  }
}

async function expectScreen(state: AnyMachineSnapshot, page: Harness) {
  await settle(() => within(tab()).getByRole('button', { name: `Subscribe to ${monthlyPlan.name}` }));
  if (state.hasTag('dialog')) {
    await settle(() => expect(dialog()).not.toBeNull());
    const busy = state.hasTag('busy');
    const pay = within(dialog()!).getByRole('button', { name: busy ? 'Processing...' : 'Pay Now' }) as HTMLButtonElement;
    expect(pay.disabled).toBe(busy);
    expect(within(dialog()!).getByText(/Carnivo Monthly/).textContent).toContain('$9.99');
  } else {
    await settle(() => expect(dialog()).toBeNull());
  }
  if (state.matches('creating')) {
    expect(within(tab()).getByRole('button', { name: `Subscribe to ${monthlyPlan.name}` }).textContent).toBe('Starting...');
  }
  const alert = within(tab()).queryByRole('alert');
  expect(alert?.textContent ?? null).toBe(state.context.error);
  if (state.matches('succeeded')) {
    expect(within(tab()).getByRole('status').textContent).toBe(SUBSCRIPTION_SUCCESS_MESSAGE);
    // The current subscription reloads after the payment is verified.
    await settle(() => expect(page.currentLoads).toHaveBeenCalledTimes(2));
  } else {
    expect(within(tab()).queryByRole('status')).toBeNull();
  }
}

describe('subscriptionPurchase machine: model-based paths replayed against the Subscriptions tab', () => {
  afterEach(restoreProfileHarness);

  it('reaches every state and takes every event', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.flatMap(({ state }) => state._nodes.map((node: { id: string }) => node.id))));
    expect(leafStateIds(subscriptionPurchaseMachine).filter((id) => !reached.has(id))).toEqual([]);
    const taken = new Set(paths.flatMap((path) => path.steps.slice(1).map((step) => describeEvent(step.event))));
    expect(events.map(describeEvent).filter((name) => !taken.has(name))).toEqual([]);
    expect(SUBSCRIPTION_SUCCESS_MS).toBe(3000);
  });

  it('shows plan prices in dollars and sends the chosen price id and the card', async () => {
    const page = harness();
    await settle(() => within(tab()).getByRole('button', { name: `Subscribe to ${monthlyPlan.name}` }));
    expect(within(tab()).getByText('$9.99')).toBeTruthy();
    expect(within(tab()).getByText('$49.99')).toBeTruthy();
    await perform(events[0], page);
    expect(page.creates.last().input).toEqual({ priceId: 'price_monthly' });
    await perform(events[2], page);
    await settle(() => expect(dialog()).not.toBeNull());
    await perform(events[5], page);
    expect(page.payments.last().input).toEqual({ clientSecret: 'cs_test_1', method: goodCard });
  });

  it('refuses a second subscription while one is active', async () => {
    const page = harness(activeSubscription);
    await settle(() => within(tab()).getByText('Unsubscribe'));
    await perform(events[0], page);
    expect(within(tab()).getByRole('alert').textContent).toBe(purchaseRefusals.existingSubscription);
    expect(page.creates.calls).toHaveLength(0);
  });

  it.each(paths.map((path): [string, ModelPath] => [describePath(path, describeEvent), path]))('%s', async (_name, path) => {
    const page = harness();
    await expectScreen(path.steps[0].state, page);
    for (const step of path.steps.slice(1)) {
      await perform(step.event, page);
      await expectScreen(step.state, page);
    }
  });
});
