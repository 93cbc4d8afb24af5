import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { authMessages } from '../../machines/authSession.machine';
import { LOGIN_REDIRECT_DELAY_MS, deleteAccountMachine } from '../../machines/deleteAccount.machine';
import { ApiError } from '../../src/api/errors';
import { SESSION_KEYS } from '../../src/auth/session';
import { deferredCalls } from '../support/deferred';
import { describePath, leafStateIds, transitionCoveringPaths, type ModelPath } from '../support/modelPaths';
import { renderApp } from '../support/renderApp';

const REDIRECT_EVENT = 'xstate.after.loginRedirectDelay.deleteAccount.loggedOut';
const LOGGED_OUT_TEXT = 'Please log in to delete your account. You will be redirected to the login page shortly.';

const events: AnyEventObject[] = [
  { type: 'deletion.requested' },
  { type: 'deletion.confirmed' },
  { type: 'deletion.cancelled' },
  { type: 'xstate.done.actor.deleteAccount' },
  { type: 'xstate.error.actor.deleteAccount', error: new ApiError('Failed to delete account', 500) },
  { type: REDIRECT_EVENT },
];

const loggedInPaths = transitionCoveringPaths(deleteAccountMachine, { events, input: { loggedIn: true } });
const loggedOutPaths = transitionCoveringPaths(deleteAccountMachine, { events, input: { loggedIn: false } });

function renderDeletePage() {
  const deleteCalls = deferredCalls<void, void>();
  const deleteAccount = deleteAccountMachine.provide({
    actors: { deleteAccount: fromPromise<void>(() => deleteCalls.handler()) },
  });
  const app = renderApp('/delete-profile', { flows: { deleteAccount } });
  return { ...app, deleteCalls };
}

type Page = ReturnType<typeof renderDeletePage>;

/** Lets pending work (lazy chunks, promises) finish while timers stay under test control. */
async function settle(done: () => boolean) {
  for (let round = 0; round < 200 && !done(); round += 1) {
    await act(() => new Promise<void>((resolve) => setImmediate(resolve)));
  }
  expect(done()).toBe(true);
}

async function perform(event: AnyEventObject, page: Page) {
  switch (event.type) {
    case 'deletion.requested':
      await userEvent.click(screen.getByRole('button', { name: 'Delete My Account' }));
      return;
    case 'deletion.confirmed':
      await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes, Delete' }));
      return;
    case 'deletion.cancelled':
      await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
      return;
    case 'xstate.done.actor.deleteAccount':
      page.deleteCalls.last().settle.resolve();
      return;
    case 'xstate.error.actor.deleteAccount':
      page.deleteCalls.last().settle.reject(event.error);
      return;
    case REDIRECT_EVENT:
      // Not a moment before the spec's 2 seconds.
      await act(() => vi.advanceTimersByTimeAsync(LOGIN_REDIRECT_DELAY_MS - 1));
      expect(page.router.state.location.pathname).toBe('/delete-profile');
      await act(() => vi.advanceTimersByTimeAsync(1));
      return;
    default:
      throw new Error(`No way to perform ${event.type}`);
  }
}

async function expectScreen(state: AnyMachineSnapshot, page: Page) {
  if (state.matches('redirected')) {
    await settle(() => page.router.state.location.pathname === '/login');
    expect(page.router.state.location.search).toEqual({ from: '/delete-profile' });
    return;
  }
  if (state.matches('done')) {
    await waitFor(() => expect(page.router.state.location.pathname).toBe('/login'));
    await screen.findByRole('heading', { name: 'Log In' });
    expect((await screen.findByRole('status')).textContent).toBe(authMessages.accountDeleted);
    expect(localStorage.getItem(SESSION_KEYS.jwt)).toBeNull();
    expect(localStorage.getItem(SESSION_KEYS.userId)).toBeNull();
    return;
  }
  if (state.matches('loggedOut')) {
    await settle(() => screen.queryByText(LOGGED_OUT_TEXT) !== null);
    expect(screen.queryByRole('button', { name: 'Delete My Account' })).toBeNull();
    return;
  }

  await screen.findByRole('heading', { name: 'Delete Account' });
  const dialog = screen.queryByRole('alertdialog', { name: 'Confirm Account Deletion' });
  if (state.hasTag('dialog')) {
    expect(dialog).not.toBeNull();
    expect(within(dialog!).getByText('Are you absolutely sure you want to delete your account? This action is irreversible.')).toBeTruthy();
    const buttons = ['Yes, Delete', 'Cancel'].map((name) => within(dialog!).getByRole('button', { name }) as HTMLButtonElement);
    const busy = state.hasTag('busy');
    expect(buttons.map((button) => button.disabled)).toEqual([busy, busy]);
    expect(within(dialog!).queryByText('Deleting...') !== null).toBe(busy);
  } else {
    expect(dialog).toBeNull();
  }
  if (state.matches('failure')) {
    expect((await screen.findByRole('alert')).textContent).toBe(state.context.error);
  } else {
    expect(screen.queryByRole('alert')).toBeNull();
  }
}

describe('deleteAccount machine: model-based paths replayed against the Delete Account page', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reaches every state and takes every event', () => {
    expect(LOGIN_REDIRECT_DELAY_MS).toBe(2000);
    const all = [...loggedInPaths, ...loggedOutPaths];
    const reached = new Set(all.flatMap((path) => path.steps.flatMap(({ state }) => state._nodes.map((node: { id: string }) => node.id))));
    expect(leafStateIds(deleteAccountMachine).filter((id) => !reached.has(id) && !id.endsWith('.start'))).toEqual([]);
    const taken = new Set(all.flatMap((path) => path.steps.slice(1).map((step) => step.event.type)));
    expect(events.map((event) => event.type).filter((type) => !taken.has(type))).toEqual([]);
  });

  it.each(loggedInPaths.map((path): [string, ModelPath] => [describePath(path), path]))('logged in: %s', async (_name, path) => {
    localStorage.setItem(SESSION_KEYS.jwt, 'member-token');
    localStorage.setItem(SESSION_KEYS.userId, '7');
    const page = renderDeletePage();
    await expectScreen(path.steps[0].state, page);
    for (const step of path.steps.slice(1)) {
      await perform(step.event, page);
      await expectScreen(step.state, page);
    }
  });

  it.each(loggedOutPaths.map((path): [string, ModelPath] => [describePath(path), path]))('logged out: %s', async (_name, path) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const page = renderDeletePage();
    await expectScreen(path.steps[0].state, page);
    for (const step of path.steps.slice(1)) {
      await perform(step.event, page);
      await expectScreen(step.state, page);
    }
  });
});
