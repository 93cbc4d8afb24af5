import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi, expect } from 'vitest';
import { fromPromise } from 'xstate';
import type { deleteAccountMachine } from '../../machines/deleteAccount.machine';
import { ApiError } from '../../machines/services/errors';
import { SESSION_KEYS } from '../../machines/services/session';
import { deleteAccountModel } from '../models/deleteAccount.model';
import { deferredCalls } from './deferred';
import { see, type FlowPathTest, type Inspect } from './pathTests';
import { seeAlert, seeLoggedOut, seeLoginPage, timePasses, wholePage } from './pathSteps';
import { renderApp } from './renderApp';

const SERVER_FAILURE = 'Failed to delete account';

function openDeletePage(machine: typeof deleteAccountMachine, inspect: Inspect) {
  const deleteCalls = deferredCalls<void, void>();
  const deleteAccount = machine.provide({ actors: { deleteAccount: fromPromise<void>(() => deleteCalls.handler()) } });
  // No pauses between keystrokes: they would wait on the fake timers.
  const user = userEvent.setup({ delay: null });
  return { ...renderApp('/delete-profile', { flows: { deleteAccount }, inspect }), deleteCalls, user };
}
type DeletePage = ReturnType<typeof openDeletePage>;

const dialog = () => screen.getByRole('alertdialog', { name: 'Confirm Account Deletion' });

async function expectDeletePage(options: { dialog: boolean; busy?: boolean; alert?: string }) {
  await see("the heading 'Delete Account'", () => screen.getByRole('heading', { name: 'Delete Account' }));
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
      idle: () => expectDeletePage({ dialog: false }),
      confirming: () => expectDeletePage({ dialog: true }),
      deleting: () => expectDeletePage({ dialog: true, busy: true }),
      failure: () => expectDeletePage({ dialog: false, alert: SERVER_FAILURE }),
      loginPageDeleted: async (page) => {
        await seeLoginPage(page, 'Your account has been deleted successfully.');
        await seeLoggedOut();
      },
    },
  };
}
