import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromPromise, type InspectionEvent } from 'xstate';
import { deleteAccountMachine } from '../../machines/deleteAccount.machine';
import type { CurrentSubscriptionAnswer } from '../../server/src/contract/subscriptions';
import { SESSION_KEYS } from '../../machines/services/session';
import { deferredCalls } from '../support/deferred';
import { renderApp } from '../support/renderApp';

describe('the inspector sees one connected system', () => {
  it("shows a page's flow and the event it sends the auth actor", async () => {
    localStorage.setItem(SESSION_KEYS.jwt, 'member-token');
    localStorage.setItem(SESSION_KEYS.userId, '7');
    const deletions = deferredCalls<void, void>();
    const deleteAccount = deleteAccountMachine.provide({
      actors: {
        deleteAccount: fromPromise(() => deletions.handler()),
        currentSubscription: fromPromise(async (): Promise<CurrentSubscriptionAnswer | null> => null),
      },
    });
    const seen: InspectionEvent[] = [];
    const app = renderApp('/delete-profile', { flows: { deleteAccount }, inspect: (event) => seen.push(event) });

    const deleteButton = await screen.findByRole<HTMLButtonElement>('button', { name: 'Delete My Account' });
    // Enabled once the page knows what deleting does to a subscription.
    await waitFor(() => expect(deleteButton.disabled).toBe(false));
    await userEvent.click(deleteButton);
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes, Delete' }));
    await waitFor(() => expect(deletions.calls).toHaveLength(1));
    deletions.last().settle.resolve();
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/login'));

    const machines = seen.filter((event) => event.type === '@xstate.actor').map((event) => event.actorRef.getSnapshot().machine?.id);
    expect(machines).toEqual(expect.arrayContaining(['authSession', 'deleteAccount']));
    const handOver = seen.find((event) => event.type === '@xstate.event' && event.event.type === 'account.deleted');
    if (handOver?.type !== '@xstate.event') throw new Error('account.deleted never reached the auth actor');
    expect(handOver.sourceRef?.getSnapshot().machine.id).toBe('deleteAccount');
    expect(handOver.actorRef).toBe(app.auth);
  });
});
