// @ts-nocheck
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { CANCEL_SUCCESS_MS, cancelledMessage, subscriptionCancelMachine } from '../../machines/subscriptionCancel.machine';
import { subscriptionOverviewMachine } from '../../machines/subscriptionOverview.machine';
import { ApiError } from '../../src/api/errors';
import type { CancelSubscriptionResponse, CurrentSubscription } from '../../server/src/contract/subscriptions';
import { formatDate } from '../../src/features/subscriptions/format';
import { deferredCalls } from '../support/deferred';
import { describePath, leafStateIds, transitionCoveringPaths, type ModelPath } from '../support/modelPaths';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';
import { settle } from '../support/settle';
import { activeSubscription, monthlyPlan, sandboxPayments } from '../support/subscriptionFixtures';

const AFTER_CANCELLED = 'xstate.after.successMessage.subscriptionCancel.cancelled';
const cancelAt = activeSubscription.currentPeriodEnd;
const events: AnyEventObject[] = [
  { type: 'cancel.requested' },
  { type: 'cancel.confirmed' },
  { type: 'cancel.dismissed' },
  { type: 'xstate.done.actor.cancelSubscription', output: { cancelAt } },
  {
    type: 'xstate.error.actor.cancelSubscription',
    // SPEC §8's text for a failed cancel: status, status text and the answer's body.
    error: new ApiError(
      'Failed to cancel subscription: 400 Bad Request - {"data":null,"error":{"status":400,"name":"ApplicationError","message":"You have no active subscription to cancel.","details":{}}}',
      400,
    ),
  },
  { type: AFTER_CANCELLED },
];
// The graph walks the flow alone: its parent, the Subscriptions tab, is not there to be told.
const paths = transitionCoveringPaths(subscriptionCancelMachine.provide({ actions: { reloadSubscription: () => {} } }), { events });

function harness() {
  const cancels = deferredCalls<void, CancelSubscriptionResponse>();
  const server = { current: activeSubscription as CurrentSubscription };
  const subscriptionCancel = subscriptionCancelMachine.provide({
    actors: { cancelSubscription: fromPromise(() => cancels.handler()) },
  });
  const subscriptionOverview = subscriptionOverviewMachine.provide({
    actors: {
      loadPlans: fromPromise(async () => [monthlyPlan]),
      loadCurrent: fromPromise(async (): Promise<CurrentSubscription | null> => server.current),
      loadPayments: fromPromise(async () => sandboxPayments),
    },
  });
  return { ...renderProfile('subscriptions', { subscriptionCancel, subscriptionOverview }), cancels, server };
}
type Harness = ReturnType<typeof harness>;
const tab = () => screen.getByRole('region', { name: 'Subscriptions' });
const confirmDialog = () => screen.queryByRole('alertdialog', { name: 'Cancel Subscription' });

async function perform(event: AnyEventObject, page: Harness) {
  switch (event.type) {
    case 'cancel.requested':
      await page.user.click(within(tab()).getByRole('button', { name: 'Unsubscribe' }));
      return;
    case 'cancel.confirmed':
      await page.user.click(within(confirmDialog()!).getByRole('button', { name: 'Yes, Cancel' }));
      return;
    case 'cancel.dismissed':
      await page.user.click(within(confirmDialog()!).getByRole('button', { name: 'No, Keep Subscription' }));
      return;
    case 'xstate.done.actor.cancelSubscription':
      page.server.current = { ...activeSubscription, cancel_at_period_end: true };
      page.cancels.last().settle.resolve(event.output);
      return;
    case 'xstate.error.actor.cancelSubscription':
      page.cancels.last().settle.reject(event.error);
      return;
    case AFTER_CANCELLED:
      await act(() => vi.advanceTimersByTimeAsync(CANCEL_SUCCESS_MS - 1));
      expect(within(tab()).getByRole('status').textContent).toBe(cancelledMessage(cancelAt));
      await act(() => vi.advanceTimersByTimeAsync(1));
      return;
    default:
      throw new Error(`No way to perform ${event.type}`);
  }
}

async function expectScreen(state: AnyMachineSnapshot) {
  await settle(() => within(tab()).getByText(/Status:/));
  if (state.hasTag('dialog')) {
    await settle(() => expect(confirmDialog()).not.toBeNull());
    const dialog = confirmDialog()!;
    expect(dialog.textContent).toContain(`Your access continues until the end of your billing period, on ${formatDate(cancelAt)}.`);
    const busy = state.hasTag('busy');
    const buttons = [busy ? 'Cancelling...' : 'Yes, Cancel', 'No, Keep Subscription'].map(
      (name) => within(dialog).getByRole('button', { name }) as HTMLButtonElement,
    );
    expect(buttons.map((button) => button.disabled)).toEqual([busy, busy]);
  } else {
    await settle(() => expect(confirmDialog()).toBeNull());
  }
  expect(within(tab()).queryByRole('alert')?.textContent ?? null).toBe(state.context.error);
  if (state.matches('cancelled')) {
    expect(within(tab()).getByRole('status').textContent).toBe(cancelledMessage(cancelAt));
    // The reloaded subscription says when it ends instead of offering Unsubscribe.
    await settle(() => within(tab()).getByText(`Cancelling on ${formatDate(cancelAt)}`));
    expect(within(tab()).queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
  } else {
    expect(within(tab()).queryByRole('status')).toBeNull();
  }
}

describe('subscriptionCancel machine: model-based paths replayed against the Subscriptions tab', () => {
  afterEach(restoreProfileHarness);

  it('reaches every state and takes every event', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.flatMap(({ state }) => state._nodes.map((node: { id: string }) => node.id))));
    expect(leafStateIds(subscriptionCancelMachine).filter((id) => !reached.has(id))).toEqual([]);
    const taken = new Set(paths.flatMap((path) => path.steps.slice(1).map((step) => step.event.type)));
    expect(events.map((event) => event.type).filter((type) => !taken.has(type))).toEqual([]);
    expect(CANCEL_SUCCESS_MS).toBe(5000);
  });

  it('shows an active status in green', async () => {
    harness();
    await settle(() => within(tab()).getByText('active'));
    expect(within(tab()).getByText('active').className).toContain('status--active');
  });

  it.each(paths.map((path): [string, ModelPath] => [describePath(path), path]))('%s', async (_name, path) => {
    const page = harness();
    await expectScreen(path.steps[0].state);
    for (const step of path.steps.slice(1)) {
      await perform(step.event, page);
      await expectScreen(step.state);
    }
  });
});
