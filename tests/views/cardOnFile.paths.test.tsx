import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { cardOnFileMachine } from '../../machines/cardOnFile.machine';
import { subscriptionsTabMachine } from '../../machines/subscriptionsTab.machine';
import { billingMessages, type CardOnFile } from '../../server/src/contract/billing';
import { ApiError } from '../../machines/services/errors';
import { describeCard } from '../../src/features/subscriptions/format';
import { cardOnFileModel } from '../models/cardOnFile.model';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { restoreProfileHarness } from '../support/profileHarness';
import { settle } from '../support/settle';
import { activeSubscription } from '../support/subscriptionFixtures';
import { called, openSubscriptionsTab, subscriptionsTab, type SubscriptionsTabPage } from '../support/subscriptionsTab';

const visa: CardOnFile = { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 };
const mastercard: CardOnFile = { brand: 'mastercard', last4: '4444', expMonth: 3, expYear: 2031 };
const newCard = { cardNumber: '5555 5555 5555 4444', expiry: '03/31', cvc: '123' };
const FAILED = billingMessages.cardOnFileFailed;

type Page = SubscriptionsTabPage & { loadsBefore: number };

async function open(inspect: Inspect): Promise<Page> {
  const page = { ...openSubscriptionsTab({ inspect, current: activeSubscription, answerCard: false }), loadsBefore: 0 };
  await settle(subscriptionsTab);
  return page;
}

const billing = () => within(screen.getByRole('region', { name: 'Billing' }));
const cardDialog = () => screen.queryByRole('dialog', { name: 'Update your card' });
const cardLine = () => billing().queryByText(/^Card on file:/)?.textContent ?? null;

/** Answers the next card-on-file call. */
async function answer(page: Page, result: CardOnFile | null | Error) {
  await called('the card-on-file load', page.cardLoads.calls, page.loadsBefore + 1);
  page.loadsBefore = page.cardLoads.calls.length;
  if (result instanceof Error) page.cardLoads.last().settle.reject(result);
  else page.cardLoads.last().settle.resolve(result);
}

async function expectCard(card: CardOnFile | null, { alert = null }: { alert?: string | null } = {}) {
  await see(card ? `'Card on file: ${describeCard(card)}'` : 'no card line', () =>
    expect(cardLine()).toBe(card ? `Card on file: ${describeCard(card)}` : null),
  );
  await see(alert ? `the alert '${alert}' with Retry` : 'no alert', () => {
    // The section's own alert, not the card dialog's.
    const shown =
      billing()
        .queryAllByRole('alert')
        .find((element) => !cardDialog()?.contains(element)) ?? null;
    expect(shown?.querySelector('p')?.textContent ?? null).toBe(alert);
    if (shown) within(shown).getByRole('button', { name: 'Retry' });
  });
}

describe('cardOnFile: the issue 21 model replayed against the Subscriptions tab', () => {
  afterEach(restoreProfileHarness);

  it('words a card with its network, last 4 digits and expiry month in the member area date style', () => {
    expect(describeCard(visa)).toMatch(/^Visa ending in 4242, expires \S+/);
    expect(describeCard({ brand: 'amex', last4: '0005', expMonth: 7, expYear: 2032 })).toMatch(
      /^American Express ending in 0005, expires /,
    );
    expect(describeCard({ brand: 'unknown', last4: '1234', expMonth: 1, expYear: 2030 })).toMatch(/^Card ending in 1234, expires /);
    expect(describeCard(mastercard)).toBe(
      `Mastercard ending in 4444, expires ${new Date(Date.UTC(2031, 2, 1)).toLocaleDateString(undefined, { year: 'numeric', month: 'long', timeZone: 'UTC' })}`,
    );
  });

  definePathTests<Page>({
    flow: 'cardOnFile',
    machine: cardOnFileMachine,
    // The tab hands the card update on to the card on file.
    alsoMachines: [{ machine: subscriptionsTabMachine, events: ['card.changed'] }],
    model: cardOnFileModel,
    open: { 'profile.opened': open },
    perform: {
      'server.answeredCard': (page) => answer(page, visa),
      'server.answeredNoCard': (page) => answer(page, null),
      'server.failed': (page) => answer(page, new ApiError(FAILED, 502)),
      'retry.clicked': (page) => page.user.click(within(billing().getByRole('alert')).getByRole('button', { name: 'Retry' })),
      'newCard.submitted': async (page) => {
        await page.user.click(billing().getByRole('button', { name: 'Manage billing' }));
        await see("the dialog 'Update your card'", () => expect(cardDialog()).not.toBeNull());
        const dialog = within(cardDialog()!);
        await page.user.type(dialog.getByLabelText('Card number'), newCard.cardNumber);
        await page.user.type(dialog.getByLabelText('Expiry (MM/YY)'), newCard.expiry);
        await page.user.type(dialog.getByLabelText('CVC'), newCard.cvc);
        await page.user.click(dialog.getByRole('button', { name: 'Update card' }));
      },
      'server.cardUpdated': (page) => page.cardUpdates.last().settle.resolve(mastercard.last4),
      'server.cardDeclined': (page) => page.cardUpdates.last().settle.reject(new ApiError('Your card was declined.', 402)),
      'server.answeredNewCard': (page) => answer(page, mastercard),
    },
    screens: {
      loading: async (page) => {
        await called('the card-on-file load', page.cardLoads.calls, page.loadsBefore + 1);
        await expectCard(null);
      },
      noCard: () => expectCard(null),
      showing: async () => {
        await expectCard(visa);
        expect(cardDialog()).toBeNull();
      },
      updating: async (page) => {
        await called('the card update', page.cardUpdates.calls, 1);
        expect(page.cardUpdates.last().input).toEqual(newCard);
        await expectCard(visa);
      },
      declined: async (page) => {
        await see('the decline in the dialog', () =>
          expect(within(cardDialog()!).getByRole('alert').textContent).toBe('Your card was declined.'),
        );
        await expectCard(visa);
        // Not asked for again: nothing changed.
        expect(page.cardLoads.calls).toHaveLength(page.loadsBefore);
      },
      reloading: async (page) => {
        await see('the dialog closed', () => expect(cardDialog()).toBeNull());
        await see(`the notice '${billingMessages.cardUpdated}'`, () =>
          expect(billing().getByRole('status').textContent).toBe(billingMessages.cardUpdated),
        );
        await called('the card-on-file load', page.cardLoads.calls, page.loadsBefore + 1);
        await expectCard(visa);
      },
      showingNew: async () => {
        await expectCard(mastercard);
        expect(billing().getByRole('status').textContent).toBe(billingMessages.cardUpdated);
      },
      failed: () => expectCard(null, { alert: FAILED }),
    },
  });
});
