import { afterEach, describe, expect } from 'vitest';
import { within } from '@testing-library/react';
import { subscriptionOverviewMachine } from '../../machines/subscriptionOverview.machine';
import { subscriptionsTabMachine } from '../../machines/subscriptionsTab.machine';
import { ApiError } from '../../machines/services/errors';
import { subscriptionOverviewModel } from '../models/subscriptionOverview.model';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { shownFor } from '../support/pathSteps';
import { restoreProfileHarness } from '../support/profileHarness';
import { activeSubscription, monthlyPlan, retiredPlan, sandboxPayments } from '../support/subscriptionFixtures';
import {
  called,
  expectMessages,
  paymentDialog,
  seePlans,
  showSubscriptionsTab,
  subscriptionsTab,
  type SubscriptionsTabPage,
} from '../support/subscriptionsTab';

// SPEC §8: what the tab shows for each failed load (the payment mode's is the app's own).
const PLANS_FAILED = 'Failed to load subscription plans';
const CURRENT_FAILED = 'Failed to load current subscription';
const PAYMENTS_FAILED = 'Payments are unavailable right now.';
/** Which loads each server event fails, in the order the alert lists them. */
const failures: Record<string, { plans?: string; current?: string; payments?: string }> = {
  'server.plansFailed': { plans: PLANS_FAILED },
  'server.subscriptionFailed': { current: CURRENT_FAILED },
  'server.paymentsFailed': { payments: PAYMENTS_FAILED },
  'server.allFailed': { plans: PLANS_FAILED, current: CURRENT_FAILED, payments: PAYMENTS_FAILED },
};
const messagesOf = (failed: (typeof failures)[string]) =>
  [failed.plans, failed.current, failed.payments].filter((message) => message !== undefined);

/** The tab, the loads' call counts before the last retry or purchase, and the messages of the last failure. */
type Page = SubscriptionsTabPage & { loadsBefore: { plans: number; current: number; payments: number }; failedWith: string[] };

const open = (inspect: Inspect): Promise<Page> =>
  showSubscriptionsTab({ inspect, answerLoads: false }, { loadsBefore: { plans: 0, current: 0, payments: 0 }, failedWith: [] });

const tab = () => within(subscriptionsTab());
const subscribeOffered = () => tab().queryByRole('button', { name: `Subscribe to ${monthlyPlan.name}` }) !== null;
const countLoads = (page: Page) => ({
  plans: page.loads.plans.calls.length,
  current: page.loads.current.calls.length,
  payments: page.loads.payments.calls.length,
});

/** Answers the pending loads: each one fails with its message, or answers with the member's data. */
async function answerLoads(page: Page, failed: (typeof failures)[string]) {
  await called('the plans load', page.loads.plans.calls, page.loadsBefore.plans + 1);
  await called('the subscription load', page.loads.current.calls, page.loadsBefore.current + 1);
  await called('the payment mode load', page.loads.payments.calls, page.loadsBefore.payments + 1);
  const answer = <T,>(
    calls: { last: () => { settle: { resolve: (value: T) => void; reject: (reason: unknown) => void } } },
    value: T,
    message?: string,
  ) => (message ? calls.last().settle.reject(new ApiError(message, 500)) : calls.last().settle.resolve(value));
  answer(page.loads.plans, [monthlyPlan, retiredPlan], failed.plans);
  answer(page.loads.current, null, failed.current);
  answer(page.loads.payments, sandboxPayments, failed.payments);
  page.failedWith = messagesOf(failed);
}

async function expectAlert(messages: string[]) {
  await see(`the alert '${messages.join("', '")}' with Retry`, () => {
    const alert = tab().getByRole('alert');
    expect([...alert.querySelectorAll('p')].map((line) => line.textContent)).toEqual(messages);
    within(alert).getByRole('button', { name: 'Retry' });
  });
}

const failing = (type: string) => (page: Page) => answerLoads(page, failures[type]);

describe('subscriptionOverview: the spec model replayed against the Subscriptions tab', () => {
  afterEach(restoreProfileHarness);

  definePathTests<Page>({
    flow: 'subscriptionOverview',
    machine: subscriptionOverviewMachine,
    // The tab forwards the purchase and reloads the overview once it went through.
    // The tab's Manage billing forwarding is the manage-billing test's.
    alsoMachines: [{ machine: subscriptionsTabMachine, events: ['plan.chosen', 'subscription.changed'] }],
    model: subscriptionOverviewModel,
    open: { 'profile.opened': open },
    perform: {
      'server.allAnswered': (page) => answerLoads(page, {}),
      'server.plansFailed': failing('server.plansFailed'),
      'server.subscriptionFailed': failing('server.subscriptionFailed'),
      'server.paymentsFailed': failing('server.paymentsFailed'),
      'server.allFailed': failing('server.allFailed'),
      'retry.clicked': async (page) => {
        page.loadsBefore = countLoads(page);
        await page.user.click(within(tab().getByRole('alert')).getByRole('button', { name: 'Retry' }));
      },
      'plan.boughtNothingDue': async (page) => {
        page.loadsBefore = countLoads(page);
        await page.user.click(tab().getByRole('button', { name: `Subscribe to ${monthlyPlan.name}` }));
        await called('the create call', page.creates.calls, 1);
        page.creates.last().settle.resolve({ clientSecret: null, subscriptionId: 'sub_2' });
        await called('the verify call', page.verifications.calls, 1);
        page.verifications.last().settle.resolve();
      },
      'server.subscriptionAnswered': (page) => page.loads.current.last().settle.resolve(activeSubscription),
    },
    screens: {
      loading: async () => {
        await see("'Loading plans…' and 'Loading your subscription…'", () => {
          tab().getByText('Loading plans…');
          tab().getByText('Loading your subscription…');
        });
        expect(subscribeOffered()).toBe(false);
        await expectMessages({});
      },
      failed: async (_page, { via }) => {
        const failed = shownFor(failures, via);
        await expectAlert(messagesOf(failed));
        // The plans that did load are offered.
        expect(subscribeOffered()).toBe(failed.plans === undefined);
        expect(tab().queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
      },
      retrying: async (page) => {
        // Every load is asked again.
        await see('every load asked again', () =>
          expect(countLoads(page)).toEqual({
            plans: page.loadsBefore.plans + 1,
            current: page.loadsBefore.current + 1,
            payments: page.loadsBefore.payments + 1,
          }),
        );
        await expectAlert(page.failedWith);
        await see("'Loading your subscription…'", () => tab().getByText('Loading your subscription…'));
      },
      loaded: async () => {
        await see(`the button 'Subscribe to ${monthlyPlan.name}'`, () => expect(subscribeOffered()).toBe(true));
        await seePlans([
          { plan: monthlyPlan, offer: 'open' },
          { plan: retiredPlan, offer: 'none' },
        ]);
        expect(tab().queryByText('Loading plans…')).toBeNull();
        expect(tab().getByText('You have no subscription yet.')).toBeTruthy();
        await expectMessages({});
      },
      reloading: async (page) => {
        // Purchase → overview reload: the current subscription is asked again.
        await called('the current subscription reload', page.loads.current.calls, page.loadsBefore.current + 1);
        await expectMessages({ notice: 'Subscription successful!' });
        await see("'Loading your subscription…'", () => tab().getByText('Loading your subscription…'));
        expect(paymentDialog()).toBeNull();
        // Until the server says what the member holds, no plan is offered.
        await seePlans([
          { plan: monthlyPlan, offer: 'busy' },
          { plan: retiredPlan, offer: 'none' },
        ]);
      },
      subscribed: async () => {
        await see('the card with Unsubscribe', () => tab().getByRole('button', { name: 'Unsubscribe' }));
        expect(tab().getByText('Carnivo Monthly', { selector: 'strong' })).toBeTruthy();
        await expectMessages({ notice: 'Subscription successful!' });
        await seePlans([
          { plan: monthlyPlan, offer: 'none', current: true },
          { plan: retiredPlan, offer: 'none' },
        ]);
        expect(tab().getByText('You already have an active subscription.')).toBeTruthy();
      },
    },
  });
});
