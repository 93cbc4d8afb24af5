import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, within } from '@testing-library/react';
import { SUBSCRIPTION_SUCCESS_MS, subscriptionPurchaseMachine } from '../../machines/subscriptionPurchase.machine';
import { subscriptionsTabMachine } from '../../machines/subscriptionsTab.machine';
import { ApiError } from '../../src/api/errors';
import { subscriptionPurchaseModel } from '../models/subscriptionPurchase.model';
import type { CurrentSubscription } from '../../server/src/contract/subscriptions';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { settle } from '../support/settle';
import { restoreProfileHarness } from '../support/profileHarness';
import { activeSubscription, monthlyPlan, retiredPlan } from '../support/subscriptionFixtures';
import {
  called,
  expectMessages,
  openSubscriptionsTab,
  paymentDialog,
  subscribeButton,
  subscriptionsTab,
  type SubscriptionsTabPage,
} from '../support/subscriptionsTab';

const SUCCESS = 'Subscription successful!';
const goodCard = { kind: 'sandbox', card: { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' } } as const;
/** SPEC §8: what each failure shows once the modal has closed. */
const failures: Record<string, string> = {
  'server.createRefused': 'Failed to initiate subscription: This plan does not exist.',
  'provider.notSucceeded': 'Payment failed',
  'provider.declined': 'Your card was declined.',
  'provider.errored': 'An error occurred',
  'server.verifyFailed': 'Failed to verify subscription',
};

/** The tab, and what the test answered so far. */
type Page = SubscriptionsTabPage & { createsBefore: number; subscriptionId: string; currentLoadsBefore: number };
const open = (current: CurrentSubscription | null) => async (inspect: Inspect) => {
  const page = { ...openSubscriptionsTab({ inspect, current }), createsBefore: 0, subscriptionId: '', currentLoadsBefore: 0 };
  // The tab's lazy chunk may take a while on a busy machine.
  await settle(subscriptionsTab);
  return page;
};

async function choose(page: Page, plan: typeof monthlyPlan) {
  await see(`the button 'Subscribe to ${plan.name}'`, () => subscribeButton(plan));
  page.createsBefore = page.creates.calls.length;
  await page.user.click(subscribeButton(plan));
}

/** The plans, each offered (or the chosen one starting), with no payment modal. */
async function expectPlans(starting = false) {
  await see(`the button 'Subscribe to ${monthlyPlan.name}'`, () => subscribeButton(monthlyPlan));
  await see('no payment modal', () => expect(paymentDialog()).toBeNull());
  await see(starting ? "'Starting...' on the chosen plan" : "'Subscribe' on every plan", () =>
    expect(subscribeButton(monthlyPlan).textContent).toBe(starting ? 'Starting...' : 'Subscribe'),
  );
  expect(subscribeButton(retiredPlan).textContent).toBe('Subscribe');
  expect([monthlyPlan, retiredPlan].map((plan) => subscribeButton(plan).disabled)).toEqual([starting, starting]);
  // SPEC §9: cents shown as dollars with 2 decimals.
  expect(within(subscriptionsTab()).getByText('$9.99')).toBeTruthy();
  expect(within(subscriptionsTab()).getByText('$49.99')).toBeTruthy();
}

async function expectPaymentModal(busy: boolean) {
  await see("the modal 'Complete your subscription'", () => expect(paymentDialog()).not.toBeNull());
  const modal = paymentDialog()!;
  expect(within(modal).getByText(/Carnivo Monthly/).textContent).toBe('Carnivo Monthly: $9.99 per month, renewing until you cancel.');
  await see(busy ? "'Processing...' disabled" : "'Pay Now' enabled", () =>
    expect((within(modal).getByRole('button', { name: busy ? 'Processing...' : 'Pay Now' }) as HTMLButtonElement).disabled).toBe(busy),
  );
  expect((within(modal).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(busy);
  await expectMessages({});
}

async function expectSubscribedCard() {
  await see("the card 'Carnivo Monthly' with Unsubscribe", () => within(subscriptionsTab()).getByRole('button', { name: 'Unsubscribe' }));
  expect(within(subscriptionsTab()).getByText('Carnivo Monthly', { selector: 'strong' })).toBeTruthy();
  expect(within(subscriptionsTab()).getByText('active').className).toContain('status--active');
}

describe('subscriptionPurchase: the spec model replayed against the Subscriptions tab', () => {
  afterEach(restoreProfileHarness);

  it('uses the spec delay', () => {
    expect(SUBSCRIPTION_SUCCESS_MS).toBe(3000);
  });

  definePathTests<Page>({
    flow: 'subscriptionPurchase',
    machine: subscriptionPurchaseMachine,
    // The tab forwards the choice with the current subscription and reloads the overview after a change.
    // The tab's Manage billing forwarding is the manage-billing test's.
    alsoMachines: [{ machine: subscriptionsTabMachine, events: ['plan.chosen', 'subscription.changed'] }],
    model: subscriptionPurchaseModel,
    open: { 'profile.opened': open(null), 'profile.openedSubscribed': open(activeSubscription) },
    perform: {
      'plan.chosen': (page) => choose(page, monthlyPlan),
      'retiredPlan.chosen': (page) => choose(page, retiredPlan),
      'server.created': (page) => {
        page.subscriptionId = 'sub_1';
        page.creates.last().settle.resolve({ clientSecret: 'cs_test_1', subscriptionId: 'sub_1' });
      },
      // e.g. a free trial: no first payment, so no card to confirm.
      'server.createdNothingDue': (page) => {
        page.subscriptionId = 'sub_2';
        page.creates.last().settle.resolve({ clientSecret: null, subscriptionId: 'sub_2' });
      },
      'server.createRefused': (page) => page.creates.last().settle.reject(new ApiError(failures['server.createRefused'], 400)),
      'payment.submitted': async (page) => {
        const modal = paymentDialog()!;
        await page.user.type(within(modal).getByLabelText('Card number'), goodCard.card.cardNumber);
        await page.user.type(within(modal).getByLabelText('Expiry (MM/YY)'), goodCard.card.expiry);
        await page.user.type(within(modal).getByLabelText('CVC'), goodCard.card.cvc);
        await page.user.click(within(modal).getByRole('button', { name: 'Pay Now' }));
      },
      'payment.cancelled': (page) => page.user.click(within(paymentDialog()!).getByRole('button', { name: 'Cancel' })),
      'payment.closed': (page) => page.user.click(within(paymentDialog()!).getByRole('button', { name: 'Close' })),
      'provider.succeeded': (page) => page.confirmations.last().settle.resolve({ status: 'succeeded' }),
      'provider.notSucceeded': (page) => page.confirmations.last().settle.resolve({ status: 'requires_payment_method' }),
      'provider.declined': (page) => page.confirmations.last().settle.reject(new ApiError(failures['provider.declined'], 402)),
      // The provider gave no message.
      'provider.errored': (page) => page.confirmations.last().settle.reject(new Error('')),
      'server.verified': (page) => {
        page.server.current = activeSubscription;
        page.currentLoadsBefore = page.loads.current.calls.length;
        page.verifications.last().settle.resolve();
      },
      'server.verifyFailed': (page) => page.verifications.last().settle.reject(new ApiError(failures['server.verifyFailed'], 500)),
      'time.passed3s': async () => {
        await act(() => vi.advanceTimersByTimeAsync(2999));
        expect(within(subscriptionsTab()).getByRole('status').textContent).toBe(SUCCESS);
        await act(() => vi.advanceTimersByTimeAsync(1));
      },
    },
    screens: {
      choosing: async () => {
        await expectPlans();
        await expectMessages({});
        expect(within(subscriptionsTab()).getByText('You have no subscription yet.')).toBeTruthy();
      },
      subscribed: async () => {
        await expectPlans();
        await expectSubscribedCard();
        await expectMessages({});
      },
      creating: async (page) => {
        await expectPlans(true);
        await expectMessages({});
        expect(page.creates.calls).toHaveLength(page.createsBefore + 1);
        expect(page.creates.last().input).toEqual({ priceId: 'price_monthly' });
      },
      paying: () => expectPaymentModal(false),
      confirming: async (page) => {
        await expectPaymentModal(true);
        expect(page.confirmations.last().input).toEqual({ clientSecret: 'cs_test_1', method: goodCard });
      },
      verifying: async (page) => {
        await expectPaymentModal(true);
        await called('the verify call', page.verifications.calls, 1);
        expect(page.verifications.last().input).toEqual({ subscriptionId: page.subscriptionId });
      },
      succeeded: async (page) => {
        await expectPlans();
        await expectMessages({ notice: SUCCESS });
        // Purchase → overview reload: the current subscription is asked again and the card shows it; the profile reloads too.
        await called('the current subscription reload', page.loads.current.calls, page.currentLoadsBefore + 1);
        await expectSubscribedCard();
        await see('the profile reloaded', () => expect(page.profile.profileLoads).toBeGreaterThanOrEqual(2));
      },
      refusedRetired: async (page) => {
        await expectPlans();
        await expectMessages({ alert: 'This plan is no longer available.' });
        expect(page.creates.calls).toHaveLength(page.createsBefore);
      },
      refusedSubscribed: async (page) => {
        await expectPlans();
        await expectMessages({ alert: 'You already have an active subscription.' });
        expect(page.creates.calls).toHaveLength(page.createsBefore);
      },
      failed: async (_page, { via }) => {
        const message = failures[via];
        if (!message) throw new Error(`no message for ${via}`);
        await expectPlans();
        await expectMessages({ alert: message });
      },
    },
  });
});
