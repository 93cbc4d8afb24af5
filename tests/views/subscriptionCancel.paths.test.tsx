import { afterEach, describe, expect, it } from 'vitest';
import { within } from '@testing-library/react';
import { CANCEL_SUCCESS_MS, subscriptionCancelMachine } from '../../machines/subscriptionCancel.machine';
import { subscriptionsTabMachine } from '../../machines/subscriptionsTab.machine';
import { billingMessages } from '../../server/src/contract/billing';
import { ApiError } from '../../machines/services/errors';
import { formatDate } from '../../machines/rules/dates';
import { subscriptionCancelModel } from '../models/subscriptionCancel.model';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { noticeShownFor } from '../support/pathSteps';
import { restoreProfileHarness } from '../support/profileHarness';
import { activeSubscription, monthlyPlan } from '../support/subscriptionFixtures';
import {
  called,
  cancelDialog,
  expectMessages,
  showSubscriptionsTab,
  paymentDialog,
  subscribeButton,
  subscriptionsTab,
  type SubscriptionsTabPage,
} from '../support/subscriptionsTab';
import { SUCCESS_NOTICE_MS } from '../../machines/shared/notice';

const cancelAt = activeSubscription.currentPeriodEnd;
// The spec asks for "a message" and the cancelAt date; these are the app's words.
// The date as the 'Cancelling on' line writes it: one format across the member area.
const CANCELLED = `Your subscription has been cancelled. You keep access until ${formatDate(cancelAt)}.`;
// SPEC §8's text for a failed cancel: status, status text and the answer's body.
const REFUSAL =
  'Failed to cancel subscription: 400 Bad Request - {"data":null,"error":{"status":400,"name":"ApplicationError","message":"You have no active subscription to cancel.","details":{}}}';

type Page = SubscriptionsTabPage & { currentLoadsBefore: number; historyLoadsBefore: number; resumesBefore: number };
const open = (inspect: Inspect): Promise<Page> =>
  showSubscriptionsTab({ inspect, current: activeSubscription }, { currentLoadsBefore: 0, historyLoadsBefore: 0, resumesBefore: 0 });

const tab = () => within(subscriptionsTab());

/** The card of the member's subscription: still renewing (with Unsubscribe) or cancelling at period end (with Resume). */
async function expectCard(cancelling: boolean, resuming = false) {
  await see("the card's status", () => tab().getByText(/Status:/));
  expect(tab().getByText('active').className).toContain('status--active');
  await see(cancelling ? `'Cancelling on ${formatDate(cancelAt)}' instead of Unsubscribe` : "'Renews on' and Unsubscribe", () => {
    expect(tab().queryByText(`Cancelling on ${formatDate(cancelAt)}`) !== null).toBe(cancelling);
    expect(tab().queryByRole('button', { name: 'Unsubscribe' }) !== null).toBe(!cancelling);
    expect(tab().queryByText(`Renews on ${formatDate(cancelAt)}`) !== null).toBe(!cancelling);
    const resume = tab().queryByRole('button', { name: resuming ? 'Resuming...' : 'Resume subscription' }) as HTMLButtonElement | null;
    expect(resume !== null).toBe(cancelling);
    if (resume) expect(resume.disabled).toBe(resuming);
  });
}

/** The subscription, the profile and the billing history were asked again after a change. */
async function expectReloaded(page: Page) {
  await called('the current subscription reload', page.loads.current.calls, page.currentLoadsBefore + 1);
  await see('the profile reloaded', () => expect(page.profile.profileLoads).toBeGreaterThanOrEqual(2));
  await called('the billing history reload', page.invoiceLoads.calls, page.historyLoadsBefore + 1);
  expect(page.invoiceLoads.last().input).toEqual({ page: 1 });
}

const markLoads = (page: Page) => {
  page.currentLoadsBefore = page.loads.current.calls.length;
  page.historyLoadsBefore = page.invoiceLoads.calls.length;
};

async function expectConfirmation(busy: boolean) {
  await see("the dialog 'Cancel Subscription'", () => expect(cancelDialog()).not.toBeNull());
  const dialog = cancelDialog()!;
  expect(within(dialog).getByText(/^Are you sure/).textContent).toBe(
    `Are you sure? Your access continues until the end of your billing period, on ${formatDate(cancelAt)}.`,
  );
  const buttons = [busy ? 'Cancelling...' : 'Yes, Cancel', 'No, Keep Subscription'].map(
    (name) => within(dialog).getByRole('button', { name }) as HTMLButtonElement,
  );
  await see(busy ? 'both buttons disabled' : 'both buttons enabled', () =>
    expect(buttons.map((button) => button.disabled)).toEqual([busy, busy]),
  );
  await expectMessages({});
}

const noDialog = () => see('no confirmation dialog', () => expect(cancelDialog()).toBeNull());

describe('subscriptionCancel: the spec model replayed against the Subscriptions tab', () => {
  afterEach(restoreProfileHarness);

  it('uses the spec delays and the agreed messages', () => {
    expect(CANCEL_SUCCESS_MS).toBe(5000);
    expect(SUCCESS_NOTICE_MS).toBe(3000);
    expect(billingMessages.resumed).toBe('Your subscription will continue.');
  });

  definePathTests<Page>({
    flow: 'subscriptionCancel',
    machine: subscriptionCancelMachine,
    // The tab reloads the overview after the cancel, forwards the next plan choice and clears the other flow's message.
    // The tab's Manage billing forwarding is the manage-billing test's.
    alsoMachines: [
      { machine: subscriptionsTabMachine, events: ['plan.chosen', 'subscription.changed', 'purchase.started', 'cancel.started'] },
    ],
    model: subscriptionCancelModel,
    open: { 'profile.opened': open },
    perform: {
      'cancel.requested': (page) => page.user.click(tab().getByRole('button', { name: 'Unsubscribe' })),
      'cancel.confirmed': (page) => page.user.click(within(cancelDialog()!).getByRole('button', { name: 'Yes, Cancel' })),
      'cancel.dismissed': (page) => page.user.click(within(cancelDialog()!).getByRole('button', { name: 'No, Keep Subscription' })),
      'server.cancelled': (page) => {
        page.server.current = { ...activeSubscription, cancel_at_period_end: true };
        markLoads(page);
        page.cancels.last().settle.resolve({ cancelAt });
      },
      'server.refused': (page) => page.cancels.last().settle.reject(new ApiError(REFUSAL, 400)),
      'time.passed5s': noticeShownFor(5000, subscriptionsTab, CANCELLED),
      'plan.chosen': (page) => page.user.click(subscribeButton(monthlyPlan)),
      'resume.requested': (page) => {
        page.resumesBefore = page.resumes.calls.length;
        return page.user.click(tab().getByRole('button', { name: 'Resume subscription' }));
      },
      'server.resumed': (page) => {
        page.server.current = activeSubscription;
        markLoads(page);
        page.resumes.last().settle.resolve(activeSubscription);
      },
      'server.resumeRefused': (page) => page.resumes.last().settle.reject(new ApiError(billingMessages.nothingToResume, 409)),
      'time.passed3s': noticeShownFor(SUCCESS_NOTICE_MS, subscriptionsTab, billingMessages.resumed),
    },
    screens: {
      subscribed: async () => {
        await expectCard(false);
        await noDialog();
        await expectMessages({});
      },
      confirming: () => expectConfirmation(false),
      cancelling: async (page) => {
        await expectConfirmation(true);
        expect(page.cancels.calls).toHaveLength(1);
      },
      refused: async () => {
        await noDialog();
        await expectMessages({ alert: REFUSAL });
        await expectCard(false);
      },
      cancelled: async (page) => {
        await noDialog();
        await expectMessages({ notice: CANCELLED });
        // Cancel → reload: the subscription is asked again and the card says when it ends; the profile and billing history reload too.
        await expectReloaded(page);
        await expectCard(true);
      },
      cancelEnded: async () => {
        await expectMessages({});
        await expectCard(true);
      },
      resuming: async (page) => {
        await expectCard(true, true);
        await expectMessages({});
        // One call per click: the busy button takes no second one.
        await called('the resume call', page.resumes.calls, page.resumesBefore + 1);
      },
      resumed: async (page) => {
        await expectMessages({ notice: billingMessages.resumed });
        await expectReloaded(page);
        await expectCard(false);
      },
      resumeRefused: async () => {
        await expectMessages({ alert: billingMessages.nothingToResume });
        await expectCard(true);
      },
      purchaseStarting: async (page) => {
        // SPEC §6: a subscription set to cancel at period end does not block a purchase.
        await see("'Starting...' on the chosen plan", () => expect(subscribeButton(monthlyPlan).textContent).toBe('Starting...'));
        // Issue 21: the purchase's outcome replaces the cancel message, even within its 5 seconds.
        await expectMessages({});
        expect(paymentDialog()).toBeNull();
        expect(page.creates.last().input).toEqual({ priceId: 'price_monthly' });
      },
    },
  });
});
