import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { manageBillingMachine } from '../../machines/manageBilling.machine';
import { SUCCESS_NOTICE_MS } from '../../machines/shared/notice';
import { subscriptionsTabMachine } from '../../machines/subscriptionsTab.machine';
import { billingMessages } from '../../server/src/contract/billing';
import type { PaymentsConfig } from '../../server/src/contract/subscriptions';
import { ApiError } from '../../machines/services/errors';
import { manageBillingModel } from '../models/manageBilling.model';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { noticeShownFor, seeMessages } from '../support/pathSteps';
import { restoreProfileHarness } from '../support/profileHarness';
import { activeSubscription, monthlyPlan } from '../support/subscriptionFixtures';
import { called, showSubscriptionsTab, subscriptionsTab, type SubscriptionsTabPage } from '../support/subscriptionsTab';

const PORTAL = 'https://billing.stripe.com/p/session/test_portal';
const DECLINED = 'Your card was declined.';
const stripePayments: PaymentsConfig = { mode: 'stripe', publishableKey: 'pk_test_carnivo' };
const newCard = { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };

type Page = SubscriptionsTabPage & { portalsBefore: number; updatesBefore: number };

function opener(options: { payments?: PaymentsConfig; subscribed: boolean }) {
  return async (inspect: Inspect): Promise<Page> => {
    const current = options.subscribed ? activeSubscription : null;
    const page = await showSubscriptionsTab({ inspect, current, payments: options.payments }, { portalsBefore: 0, updatesBefore: 0 });
    // The plans are in once the overview answered.
    // (A subscribed member's plan has no Subscribe: its card's heading.)
    await see('the plans', () => within(subscriptionsTab()).getByRole('heading', { name: monthlyPlan.name }));
    return page;
  };
}

const billingRegion = () => screen.getByRole('region', { name: 'Billing' });
const billing = () => within(billingRegion());
const cardDialog = () => screen.queryByRole('dialog', { name: 'Update your card' });
const manageButton = (name = 'Manage billing') => billing().getByRole('button', { name }) as HTMLButtonElement;

/** The Billing section's own alert and status line (the history inside it shows none here). */
const expectMessages = (messages: { alert?: string; notice?: string }) => seeMessages(billingRegion, messages);

async function expectReady(page: Page) {
  await see("'Manage billing' enabled", () => expect(manageButton().disabled).toBe(false));
  expect(cardDialog()).toBeNull();
  expect(page.redirectTo).not.toHaveBeenCalled();
}

async function expectDialog({ busy, alert }: { busy: boolean; alert: string | null }) {
  await see("the dialog 'Update your card'", () => expect(cardDialog()).not.toBeNull());
  const dialog = within(cardDialog()!);
  const submit = dialog.getByRole('button', { name: busy ? 'Updating...' : 'Update card' }) as HTMLButtonElement;
  await see(busy ? 'the form busy' : 'the form enabled', () => {
    expect(submit.disabled).toBe(busy);
    expect((dialog.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(busy);
  });
  expect(dialog.queryByRole('alert')?.textContent ?? null).toBe(alert);
  // Nothing is charged: a card update is not a payment.
  expect(dialog.queryByRole('button', { name: 'Pay Now' })).toBeNull();
}

describe('manageBilling: the issue 11 model replayed against the Subscriptions tab', () => {
  afterEach(restoreProfileHarness);

  it('uses the spec delay and the agreed message', () => {
    expect(SUCCESS_NOTICE_MS).toBe(3000);
    expect(billingMessages.cardUpdated).toBe('Your card has been updated.');
  });

  definePathTests<Page>({
    flow: 'manageBilling',
    machine: manageBillingMachine,
    // The tab hands "Manage billing" on with the payment mode the overview loaded.
    alsoMachines: [{ machine: subscriptionsTabMachine, events: ['billing.requested'] }],
    model: manageBillingModel,
    open: {
      'profile.openedSandbox': opener({ subscribed: true }),
      'profile.openedStripe': opener({ subscribed: true, payments: stripePayments }),
      'profile.openedWithoutSubscription': opener({ subscribed: false }),
    },
    perform: {
      'manage.clicked': (page) => {
        page.portalsBefore = page.portals.calls.length;
        return page.user.click(manageButton());
      },
      'server.portalOpened': (page) => page.portals.last().settle.resolve(PORTAL),
      'server.portalRefused': (page) => page.portals.last().settle.reject(new ApiError(billingMessages.portalFailed, 500)),
      'card.submitted': async (page) => {
        const dialog = within(cardDialog()!);
        for (const [label, value] of [
          ['Card number', newCard.cardNumber],
          ['Expiry (MM/YY)', newCard.expiry],
          ['CVC', newCard.cvc],
        ]) {
          await page.user.clear(dialog.getByLabelText(label));
          await page.user.type(dialog.getByLabelText(label), value);
        }
        page.updatesBefore = page.cardUpdates.calls.length;
        await page.user.click(dialog.getByRole('button', { name: 'Update card' }));
      },
      'dialog.cancelled': (page) => page.user.click(within(cardDialog()!).getByRole('button', { name: 'Cancel' })),
      'server.cardUpdated': (page) => page.cardUpdates.last().settle.resolve('4242'),
      'server.cardDeclined': (page) => page.cardUpdates.last().settle.reject(new ApiError(DECLINED, 402)),
      'time.passed3s': noticeShownFor(SUCCESS_NOTICE_MS, billingRegion, billingMessages.cardUpdated),
    },
    screens: {
      nothingToManage: async () => {
        await see('the billing history', () => screen.getByRole('region', { name: 'Billing history' }));
        expect(billing().queryByRole('button', { name: 'Manage billing' })).toBeNull();
      },
      ready: async (page) => {
        await expectReady(page);
        await expectMessages({});
      },
      readyStripe: async (page) => {
        await expectReady(page);
        await expectMessages({});
        expect(page.portals.calls).toHaveLength(0);
      },
      openingPortal: async (page) => {
        await see("'Opening...' disabled", () => expect(manageButton('Opening...').disabled).toBe(true));
        await called('the portal call', page.portals.calls, page.portalsBefore + 1);
        await expectMessages({});
        expect(page.redirectTo).not.toHaveBeenCalled();
      },
      leftForPortal: async (page) => {
        await see('the browser sent to the portal', () => expect(page.redirectTo).toHaveBeenCalledExactlyOnceWith(PORTAL));
        expect(manageButton('Opening...').disabled).toBe(true);
        expect(cardDialog()).toBeNull();
      },
      portalRefused: async (page) => {
        await expectReady(page);
        await expectMessages({ alert: billingMessages.portalFailed });
      },
      cardDialog: async (page) => {
        await expectDialog({ busy: false, alert: null });
        expect(page.portals.calls).toHaveLength(0);
      },
      updatingCard: async (page) => {
        await expectDialog({ busy: true, alert: null });
        await called('the card update', page.cardUpdates.calls, page.updatesBefore + 1);
        expect(page.cardUpdates.last().input).toEqual(newCard);
      },
      cardDeclined: () => expectDialog({ busy: false, alert: DECLINED }),
      cardUpdated: async () => {
        await see('the dialog closed', () => expect(cardDialog()).toBeNull());
        await expectMessages({ notice: billingMessages.cardUpdated });
        expect(manageButton().disabled).toBe(false);
      },
    },
  });
});
