import { afterEach, describe, expect, it } from 'vitest';
import { formatDate } from '../../machines/rules/dates';
import { within } from '@testing-library/react';
import { subscriptionPurchaseMachine } from '../../machines/subscriptionPurchase.machine';
import { subscriptionsTabMachine } from '../../machines/subscriptionsTab.machine';
import { ApiError } from '../../machines/services/errors';
import { subscriptionPurchaseModel } from '../models/subscriptionPurchase.model';
import type { CurrentSubscriptionAnswer } from '../../server/src/contract/subscriptions';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { noticeShownFor, seeButton, shownFor } from '../support/pathSteps';
import { restoreProfileHarness } from '../support/profileHarness';
import { activeSubscription, monthlyPlan, retiredPlan, yearlyPlan } from '../support/subscriptionFixtures';
import {
  called,
  cancelDialog,
  expectMessages,
  seePlans,
  showSubscriptionsTab,
  paymentDialog,
  subscribeButton,
  subscriptionsTab,
  type SubscriptionsTabPage,
} from '../support/subscriptionsTab';
import { SUCCESS_NOTICE_MS } from '../../machines/shared/notice';

const SUCCESS = 'Subscription successful!';
const CANCELLED = `Your subscription has been cancelled. You keep access until ${formatDate(activeSubscription.currentPeriodEnd)}.`;
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
const open =
  (current: CurrentSubscriptionAnswer | null) =>
  (inspect: Inspect): Promise<Page> =>
    showSubscriptionsTab(
      { inspect, current, plans: [monthlyPlan, yearlyPlan, retiredPlan] },
      { createsBefore: 0, subscriptionId: '', currentLoadsBefore: 0 },
    );

async function choose(page: Page, plan: typeof monthlyPlan) {
  await see(`the button 'Subscribe to ${plan.name}'`, () => subscribeButton(plan));
  page.createsBefore = page.creates.calls.length;
  await page.user.click(subscribeButton(plan));
}

/** The plans with no payment modal: offered, one starting, or as a member with a renewing or cancelling Monthly sees them. */
async function expectPlans(state: 'offered' | 'starting' | 'subscribed' | 'cancelling') {
  await see('no payment modal', () => expect(paymentDialog()).toBeNull());
  const others = { offered: 'open', starting: 'busy', subscribed: 'blocked', cancelling: 'open' } as const;
  const monthly = { offered: 'open', starting: 'starting', subscribed: 'none', cancelling: 'open' } as const;
  const current = state === 'subscribed' || state === 'cancelling';
  // A retired plan is never offered; the member's plan is marked, and not offered while it renews.
  await seePlans([
    { plan: monthlyPlan, offer: monthly[state], current },
    { plan: yearlyPlan, offer: others[state] },
    { plan: retiredPlan, offer: 'none' },
  ]);
  // SPEC §9: cents shown as dollars with 2 decimals.
  expect(within(subscriptionsTab()).getByText('$9.99')).toBeTruthy();
  expect(within(subscriptionsTab()).getByText('$49.99')).toBeTruthy();
}

async function expectPaymentModal(busy: boolean) {
  await see("the modal 'Complete your subscription'", () => expect(paymentDialog()).not.toBeNull());
  const modal = paymentDialog()!;
  expect(within(modal).getByText(/Carnivo Monthly/).textContent).toBe('Carnivo Monthly: $9.99 per month, renewing until you cancel.');
  await seeButton(() => modal, { idle: 'Pay Now', busy: 'Processing...' }, busy);
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
    expect(SUCCESS_NOTICE_MS).toBe(3000);
  });

  definePathTests<Page>({
    flow: 'subscriptionPurchase',
    machine: subscriptionPurchaseMachine,
    // The tab forwards the choice with the current subscription and reloads the overview after a change.
    // The tab's Manage billing forwarding is the manage-billing test's.
    alsoMachines: [
      { machine: subscriptionsTabMachine, events: ['plan.chosen', 'subscription.changed', 'purchase.started', 'cancel.started'] },
    ],
    model: subscriptionPurchaseModel,
    open: { 'profile.opened': open(null), 'profile.openedSubscribed': open(activeSubscription) },
    perform: {
      'plan.chosen': (page) => choose(page, monthlyPlan),
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
      'time.passed3s': noticeShownFor(3000, subscriptionsTab, SUCCESS),
      'unsubscribe.confirmed': async (page) => {
        await page.user.click(within(subscriptionsTab()).getByRole('button', { name: 'Unsubscribe' }));
        await page.user.click(within(cancelDialog()!).getByRole('button', { name: 'Yes, Cancel' }));
      },
      'server.cancelled': (page) => {
        page.server.current = { ...activeSubscription, cancel_at_period_end: true };
        page.cancels.last().settle.resolve({ cancelAt: activeSubscription.currentPeriodEnd });
      },
    },
    screens: {
      choosing: async () => {
        await expectPlans('offered');
        await expectMessages({});
        expect(within(subscriptionsTab()).getByText('You have no subscription yet.')).toBeTruthy();
      },
      subscribed: async () => {
        await expectPlans('subscribed');
        await expectSubscribedCard();
        await expectMessages({});
      },
      creating: async (page) => {
        await expectPlans('starting');
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
        await expectMessages({ notice: SUCCESS });
        // Purchase → overview reload: the current subscription is asked again and the card shows it; the profile reloads too.
        await called('the current subscription reload', page.loads.current.calls, page.currentLoadsBefore + 1);
        await expectSubscribedCard();
        await expectPlans('subscribed');
        await see('the profile reloaded', () => expect(page.profile.profileLoads).toBeGreaterThanOrEqual(2));
      },
      cancelling: async () => {
        await see("the dialog 'Cancel Subscription', busy", () => within(cancelDialog()!).getByRole('button', { name: 'Cancelling...' }));
        // Issue 21: a new outcome is coming; the purchase's message gives way.
        await expectMessages({});
      },
      cancelled: async () => {
        await see('no confirmation dialog', () => expect(cancelDialog()).toBeNull());
        await expectMessages({ notice: CANCELLED });
        await see("'Cancelling on' on the card", () => within(subscriptionsTab()).getByText(/^Cancelling on/));
        // SPEC §6: a subscription set to cancel at period end blocks no purchase.
        await expectPlans('cancelling');
      },
      failed: async (_page, { via }) => {
        await expectPlans('offered');
        await expectMessages({ alert: shownFor(failures, via) });
      },
    },
  });
});
