import { assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../src/api/errors';
import { CANCEL_FALLBACK, cancelSubscription } from '../src/api/subscriptions';

/** SPEC §9: the cancel success message disappears after 5000 ms. */
export const CANCEL_SUCCESS_MS = 5000;

export function cancelledMessage(cancelAt: string): string {
  return `Your subscription has been cancelled. You keep access until ${new Date(cancelAt).toLocaleDateString()}.`;
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
    cancelSubscription: fromPromise<{ cancelAt: string }>(({ signal }) => cancelSubscription({ signal })),
  },
  actions: {
    /** Reloads the profile and the current subscription. */
    reloadSubscription: () => {},
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
