import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi, expect } from 'vitest';
import { fromPromise } from 'xstate';
import type { deleteAccountMachine } from '../../machines/deleteAccount.machine';
import type { CurrentSubscriptionAnswer } from '../../server/src/contract/subscriptions';
import { ApiError } from '../../machines/services/errors';
import { SESSION_KEYS } from '../../machines/services/session';
import { deleteAccountModel } from '../models/deleteAccount.model';
import { deferredCalls } from './deferred';
import { see, type FlowPathTest, type Inspect } from './pathTests';
import { seeAlert, seeLoggedOut, seeLoginPage, timePasses, wholePage } from './pathSteps';
import { renderApp } from './renderApp';
import { formatDateTime } from '../../machines/rules/dates';

const SERVER_FAILURE = 'Failed to delete account';

/** GET /api/subscriptions/current's answers the model's events stand for. */
const REFUNDABLE_UNTIL = '2026-12-20T10:00:00.000Z';
const answer = (status: CurrentSubscriptionAnswer['status'], refundableUntil: string | null = null): CurrentSubscriptionAnswer => ({
  id: 'sub_1',
  status,
  plan: { id: 1, productName: 'Carnivo Monthly', amount: 999, interval: 'month' },
  startDate: '2026-11-20T10:00:00.000Z',
  currentPeriodEnd: '2026-12-20T10:00:00.000Z',
  cancel_at_period_end: false,
  refundableUntil,
  refundableAmount: refundableUntil ? 999 : null,
});

const ENDS = 'Your Carnivo Monthly subscription ends when your account is deleted.';
const NO_CHARGE = 'You will not be charged again, and the rest of the period you have paid for is not refunded.';
const GUARANTEE = `Your first payment is covered by our 30-day money-back guarantee until ${formatDateTime(REFUNDABLE_UNTIL)}.`;
const UNKNOWN =
  'We could not check your subscription. If you have one, it ends when your account is deleted, and you will not be charged again.';
type Notice = 'none' | 'ends' | 'refundable' | 'unknown';

function openDeletePage(machine: typeof deleteAccountMachine, inspect: Inspect) {
  const deleteCalls = deferredCalls<void, void>();
  const subscriptionCalls = deferredCalls<void, CurrentSubscriptionAnswer | null>();
  const deleteAccount = machine.provide({
    actors: {
      deleteAccount: fromPromise<void>(() => deleteCalls.handler()),
      currentSubscription: fromPromise<CurrentSubscriptionAnswer | null>(() => subscriptionCalls.handler()),
    },
  });
  // No pauses between keystrokes: they would wait on the fake timers.
  const user = userEvent.setup({ delay: null });
  return { ...renderApp('/delete-profile', { flows: { deleteAccount }, inspect }), deleteCalls, subscriptionCalls, user };
}
type DeletePage = ReturnType<typeof openDeletePage>;

const dialog = () => screen.getByRole('alertdialog', { name: 'Confirm Account Deletion' });

/** What the page, or the dialog when open, says of the subscription; and nowhere else. */
async function expectNotice(notice: Notice, dialogOpen: boolean) {
  const page = within(screen.getByRole('heading', { name: 'Delete Account' }).closest('section')!);
  const scope = dialogOpen ? within(dialog()) : page;
  const shown = (text: string) => scope.queryAllByText(text, { exact: false }).length > 0;
  await see(`the subscription notice '${notice}'`, () =>
    expect({ ends: shown(ENDS), noCharge: shown(NO_CHARGE), guarantee: shown(GUARANTEE), unknown: shown(UNKNOWN) }).toEqual({
      ends: notice === 'ends' || notice === 'refundable',
      noCharge: notice === 'ends' || notice === 'refundable',
      guarantee: notice === 'refundable',
      unknown: notice === 'unknown',
    }),
  );
  if (dialogOpen && notice !== 'none') {
    // Read out with the dialog: its description names the notice too.
    const described = dialog()
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '');
    expect(described.join(' ')).toContain(notice === 'unknown' ? UNKNOWN : ENDS);
  }
  if (notice === 'refundable') {
    const link = scope.getByRole('link', { name: 'Subscriptions tab' });
    expect(link.getAttribute('href')).toBe('/profile?tab=subscriptions');
  }
  if (notice === 'none') expect(document.querySelector('.alert--notice')).toBeNull();
}

async function expectDeletePage(options: { dialog: boolean; busy?: boolean; alert?: string; notice: Notice }) {
  await see("the heading 'Delete Account'", () => screen.getByRole('heading', { name: 'Delete Account' }));
  await see("'Delete My Account' enabled", () =>
    expect((screen.getByRole('button', { name: 'Delete My Account' }) as HTMLButtonElement).disabled).toBe(false),
  );
  expect(screen.queryByText('Checking your subscription…')).toBeNull();
  await expectNotice(options.notice, options.dialog);
  if (options.dialog) {
    await see("the dialog 'Confirm Account Deletion'", dialog);
    expect(
      within(dialog()).getByText('Are you absolutely sure you want to delete your account? This action is irreversible.'),
    ).toBeTruthy();
    const busy = options.busy ?? false;
    const buttons = ['Yes, Delete', 'Cancel'].map((name) => within(dialog()).getByRole('button', { name }) as HTMLButtonElement);
    await see(busy ? "'Yes, Delete' and 'Cancel' disabled" : "'Yes, Delete' and 'Cancel' enabled", () =>
      expect(buttons.map((button) => button.disabled)).toEqual([busy, busy]),
    );
    expect(within(dialog()).queryByText('Deleting...') !== null).toBe(busy);
  } else {
    await see('no confirmation dialog', () => expect(screen.queryByRole('alertdialog')).toBeNull());
  }
  await seeAlert(wholePage, options.alert);
}

/** The screens of one notice's idle, confirming, deleting and failure states. */
const deletionScreens = (suffix: string, notice: Notice) => ({
  [`idle${suffix}`]: () => expectDeletePage({ dialog: false, notice }),
  [`confirming${suffix}`]: () => expectDeletePage({ dialog: true, notice }),
  [`deleting${suffix}`]: () => expectDeletePage({ dialog: true, busy: true, notice }),
  [`failure${suffix}`]: () => expectDeletePage({ dialog: false, alert: SERVER_FAILURE, notice }),
});

/** The Delete Account path test, on the given production machine (the mutation test passes wrong ones). */
export function deleteAccountPathTest(machine: typeof deleteAccountMachine): FlowPathTest<DeletePage> {
  return {
    flow: 'deleteAccount',
    machine,
    model: deleteAccountModel,
    open: {
      'page.openedLoggedIn': (inspect) => {
        localStorage.setItem(SESSION_KEYS.jwt, 'member-token');
        localStorage.setItem(SESSION_KEYS.userId, '7');
        return openDeletePage(machine, inspect);
      },
      'page.openedLoggedOut': (inspect) => {
        // The spec's 2 seconds are stepped through.
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
        return openDeletePage(machine, inspect);
      },
    },
    perform: {
      // Not a moment before the spec's 2 seconds.
      'time.passed2s': timePasses(2000, (page: DeletePage) => expect(page.router.state.location.pathname).toBe('/delete-profile')),
      'deletion.requested': (page) => page.user.click(screen.getByRole('button', { name: 'Delete My Account' })),
      'deletion.confirmed': (page) => page.user.click(within(dialog()).getByRole('button', { name: 'Yes, Delete' })),
      'deletion.cancelled': (page) => page.user.click(within(dialog()).getByRole('button', { name: 'Cancel' })),
      'server.noSubscription': (page) => page.subscriptionCalls.last().settle.resolve(null),
      'server.unpaidPurchaseOnly': (page) => page.subscriptionCalls.last().settle.resolve(answer('incomplete')),
      'server.planHeld': (page) => page.subscriptionCalls.last().settle.resolve(answer('active')),
      'server.planRefundable': (page) => page.subscriptionCalls.last().settle.resolve(answer('active', REFUNDABLE_UNTIL)),
      'server.lookupFailed': (page) =>
        page.subscriptionCalls.last().settle.reject(new ApiError('Failed to load current subscription', 500)),
      'server.deleted': (page) => page.deleteCalls.last().settle.resolve(),
      'server.failed': (page) => page.deleteCalls.last().settle.reject(new ApiError(SERVER_FAILURE, 500)),
    },
    screens: {
      loggedOutNotice: async () => {
        await see('the logged-out notice', () =>
          screen.getByText('Please log in to delete your account. You will be redirected to the login page shortly.'),
        );
        expect(screen.queryByRole('button', { name: 'Delete My Account' })).toBeNull();
      },
      loginPageAsked: async (page) => {
        await seeLoginPage(page, 'Please log in to proceed with account deletion');
        expect(page.router.state.location.search).toEqual({ from: '/delete-profile' });
      },
      checking: async () => {
        await see("'Delete My Account' disabled while the subscription is looked up, saying so", () => {
          const button = screen.getByRole('button', { name: 'Delete My Account' }) as HTMLButtonElement;
          expect(button.disabled).toBe(true);
          expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe('Checking your subscription…');
        });
        await expectNotice('none', false);
      },
      ...deletionScreens('', 'none'),
      ...deletionScreens('Ends', 'ends'),
      ...deletionScreens('Refundable', 'refundable'),
      ...deletionScreens('Unknown', 'unknown'),
      loginPageDeleted: async (page) => {
        await seeLoginPage(page, 'Your account has been deleted successfully.');
        await seeLoggedOut();
      },
    },
  };
}
