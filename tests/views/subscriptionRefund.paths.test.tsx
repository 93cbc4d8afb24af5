import { afterEach, describe, expect, it } from 'vitest';
import { within } from '@testing-library/react';
import { refundedMessage, subscriptionRefundMachine } from '../../machines/subscriptionRefund.machine';
import { subscriptionsTabMachine } from '../../machines/subscriptionsTab.machine';
import { ApiError } from '../../machines/services/errors';
import { formatDateTime } from '../../machines/rules/dates';
import { SUCCESS_NOTICE_MS } from '../../machines/shared/notice';
import { refundRefusals } from '../../server/src/contract/subscriptions';
import { subscriptionRefundModel } from '../models/subscriptionRefund.model';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { noticeShownFor } from '../support/pathSteps';
import { restoreProfileHarness } from '../support/profileHarness';
import { activeSubscription, monthlyPlan } from '../support/subscriptionFixtures';
import {
  called,
  expectMessages,
  paymentDialog,
  refundDialog,
  showSubscriptionsTab,
  subscribeButton,
  subscriptionsTab,
  type SubscriptionsTabPage,
} from '../support/subscriptionsTab';

const REFUNDABLE_UNTIL = '2026-12-27T09:00:00.000Z';
const covered = { ...activeSubscription, refundableUntil: REFUNDABLE_UNTIL, refundableAmount: 999 };
const OFFER = `30-day money-back guarantee: you can get your first payment of $9.99 back until ${formatDateTime(REFUNDABLE_UNTIL)}.`;
const CONFIRMATION =
  'We will refund your first payment of $9.99 in full to the card you paid with. Your subscription ends now, and its paid features stop straight away.';
const REFUNDED = 'Your first payment of $9.99 has been refunded and your subscription has ended.';

type Page = SubscriptionsTabPage & { currentLoadsBefore: number; historyLoadsBefore: number };
const open = (inspect: Inspect): Promise<Page> =>
  showSubscriptionsTab({ inspect, current: covered }, { currentLoadsBefore: 0, historyLoadsBefore: 0 });

const tab = () => within(subscriptionsTab());

/** The card's guarantee line and its button, or neither (no subscription left). */
async function expectOffer(shown: boolean) {
  await see(shown ? 'the money-back offer' : 'no subscription and no offer', () => {
    expect(tab().queryByText(OFFER) !== null).toBe(shown);
    expect(tab().queryByRole('button', { name: 'Request a refund' }) !== null).toBe(shown);
    expect(tab().queryByText('You have no subscription yet.') !== null).toBe(!shown);
  });
}

async function expectConfirmation(busy: boolean) {
  await see("the dialog 'Request a refund'", () => expect(refundDialog()).not.toBeNull());
  const dialog = refundDialog()!;
  expect(within(dialog).getByText(/^We will refund/).textContent).toBe(CONFIRMATION);
  const buttons = [busy ? 'Refunding...' : 'Yes, Refund', 'No, Keep Subscription'].map(
    (name) => within(dialog).getByRole('button', { name }) as HTMLButtonElement,
  );
  await see(busy ? 'both buttons disabled' : 'both buttons enabled', () =>
    expect(buttons.map((button) => button.disabled)).toEqual([busy, busy]),
  );
  await expectMessages({});
}

const noDialog = () => see('no refund dialog', () => expect(refundDialog()).toBeNull());

/** After the answer, the subscription, the profile and the billing history were asked again. */
async function expectReloaded(page: Page) {
  await called('the current subscription reload', page.loads.current.calls, page.currentLoadsBefore + 1);
  await see('the profile reloaded', () => expect(page.profile.profileLoads).toBeGreaterThanOrEqual(2));
  await called('the billing history reload', page.invoiceLoads.calls, page.historyLoadsBefore + 1);
}

/** The server's answer to come: the member holds no subscription any more (refunded, or ended in another tab). */
const endOnServer = (page: Page) => {
  page.server.current = null;
  page.currentLoadsBefore = page.loads.current.calls.length;
  page.historyLoadsBefore = page.invoiceLoads.calls.length;
};

describe('subscriptionRefund: the issue 30 model replayed against the Subscriptions tab', () => {
  afterEach(restoreProfileHarness);

  it('shows its message for the spec 3 seconds, naming the amount', () => {
    expect(SUCCESS_NOTICE_MS).toBe(3000);
    expect(refundedMessage({ invoiceId: 'in_1', amount: 999, currency: 'usd' })).toBe(REFUNDED);
  });

  definePathTests<Page>({
    flow: 'subscriptionRefund',
    machine: subscriptionRefundMachine,
    // The tab reloads after the refund, and a purchase started clears the refund's message or refusal.
    alsoMachines: [{ machine: subscriptionsTabMachine, events: ['refund.started'] }],
    model: subscriptionRefundModel,
    open: { 'profile.opened': open },
    perform: {
      'refund.requested': (page) => page.user.click(tab().getByRole('button', { name: 'Request a refund' })),
      'refund.confirmed': (page) => page.user.click(within(refundDialog()!).getByRole('button', { name: 'Yes, Refund' })),
      'refund.dismissed': (page) => page.user.click(within(refundDialog()!).getByRole('button', { name: 'No, Keep Subscription' })),
      'server.refunded': (page) => {
        endOnServer(page);
        page.refunds.last().settle.resolve({ invoiceId: 'in_1', amount: 999, currency: 'usd' });
      },
      'server.refused': (page) => {
        endOnServer(page);
        page.refunds.last().settle.reject(new ApiError(refundRefusals.nothingToRefund, 409));
      },
      'time.passed3s': noticeShownFor(SUCCESS_NOTICE_MS, subscriptionsTab, REFUNDED),
      'plan.chosen': (page) => page.user.click(subscribeButton(monthlyPlan)),
    },
    screens: {
      offered: async () => {
        await expectOffer(true);
        await noDialog();
        await expectMessages({});
      },
      confirming: () => expectConfirmation(false),
      refunding: async (page) => {
        await expectConfirmation(true);
        expect(page.refunds.calls).toHaveLength(1);
      },
      refunded: async (page) => {
        await noDialog();
        await expectMessages({ notice: REFUNDED });
        await expectReloaded(page);
        await expectOffer(false);
      },
      refundEnded: async () => {
        await expectMessages({});
        await expectOffer(false);
      },
      refused: async (page) => {
        await noDialog();
        await expectMessages({ alert: refundRefusals.nothingToRefund });
        await expectReloaded(page);
        await expectOffer(false);
      },
      purchaseStarting: async (page) => {
        await see("'Starting...' on the chosen plan", () => expect(subscribeButton(monthlyPlan).textContent).toBe('Starting...'));
        // One outcome on screen: the purchase's replaces the refund's message or refusal.
        await expectMessages({});
        expect(paymentDialog()).toBeNull();
        expect(page.creates.last().input).toEqual({ priceId: 'price_monthly' });
      },
    },
  });
});
