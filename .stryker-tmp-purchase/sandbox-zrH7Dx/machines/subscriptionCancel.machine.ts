// @ts-nocheck
import { assign, fromPromise, sendParent, setup } from 'xstate';
import { errorMessage } from '../src/api/errors';
import type { CancelSubscriptionResponse } from '../server/src/contract/subscriptions';
import { CANCEL_FALLBACK, cancelSubscription } from '../src/api/subscriptions';

/** SPEC §9: the cancel success message disappears after 5000 ms. */
export const CANCEL_SUCCESS_MS = 5000;

/** `cancelAt` is null when the provider gave no end date: access still runs to the period's end. */
export function cancelledMessage(cancelAt: string | null): string {
  const until = cancelAt ? new Date(cancelAt).toLocaleDateString() : 'the end of your billing period';
  return `Your subscription has been cancelled. You keep access until ${until}.`;
}

export type SubscriptionCancelEvent =
  | { type: 'cancel.requested' }
  | { type: 'cancel.confirmed' }
  | { type: 'cancel.dismissed' };

export const subscriptionCancelMachine = setup({
  types: {
    context: {} as { cancelAt: string | null; error: string | null },
    events: {} as SubscriptionCancelEvent,
  },
  actors: {
    cancelSubscription: fromPromise<CancelSubscriptionResponse>(({ signal }) => cancelSubscription({ signal })),
  },
  actions: {
    /** Tells the Subscriptions tab, its parent, to reload the profile and the current subscription. */
    reloadSubscription: sendParent({ type: 'subscription.changed' }),
  },
  delays: {
    successMessage: CANCEL_SUCCESS_MS,
  },
}).createMachine({
  id: 'subscriptionCancel',
  context: { cancelAt: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'cancel.requested': { target: 'confirming', actions: assign({ error: null }) } },
    },
    confirming: {
      tags: ['dialog'],
      on: {
        'cancel.confirmed': 'cancelling',
        'cancel.dismissed': 'idle',
      },
    },
    cancelling: {
      tags: ['dialog', 'busy'],
      invoke: {
        id: 'cancelSubscription',
        src: 'cancelSubscription',
        onDone: {
          target: 'cancelled',
          actions: [assign({ cancelAt: ({ event }) => event.output.cancelAt }), 'reloadSubscription'],
        },
        onError: {
          target: 'idle',
          actions: assign({ error: ({ event }) => errorMessage(event.error, CANCEL_FALLBACK) }),
        },
      },
    },
    cancelled: {
      tags: ['success'],
      after: { successMessage: { target: 'idle', actions: assign({ cancelAt: null }) } },
    },
  },
});
