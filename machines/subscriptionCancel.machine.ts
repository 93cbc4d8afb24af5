import { assign, fromPromise, sendParent, setup } from 'xstate';
import { errorMessage } from '../src/api/errors';
import { billingMessages } from '../server/src/contract/billing';
import type { CancelSubscriptionResponse, CurrentSubscription } from '../server/src/contract/subscriptions';
import { resumeSubscription } from '../src/api/billing';
import { CANCEL_FALLBACK, cancelSubscription } from '../src/api/subscriptions';

/** SPEC §9: the cancel success message disappears after 5000 ms. */
export const CANCEL_SUCCESS_MS = 5000;
/** SPEC §9: other success messages on the profile disappear after 3000 ms. */
export const RESUME_SUCCESS_MS = 3000;

/** `cancelAt` is null when the provider gave no end date: access still runs to the period's end. */
export function cancelledMessage(cancelAt: string | null): string {
  const until = cancelAt ? new Date(cancelAt).toLocaleDateString() : 'the end of your billing period';
  return `Your subscription has been cancelled. You keep access until ${until}.`;
}

export type SubscriptionCancelEvent =
  | { type: 'cancel.requested' }
  | { type: 'cancel.confirmed' }
  | { type: 'cancel.dismissed' }
  /** "Resume subscription" on a subscription set to cancel at period end. */
  | { type: 'resume.requested' };

export const subscriptionCancelMachine = setup({
  types: {
    context: {} as { cancelAt: string | null; error: string | null },
    events: {} as SubscriptionCancelEvent,
  },
  actors: {
    cancelSubscription: fromPromise<CancelSubscriptionResponse>(({ signal }) => cancelSubscription({ signal })),
    resumeSubscription: fromPromise<CurrentSubscription>(({ signal }) => resumeSubscription({ signal })),
  },
  actions: {
    /** Tells the Subscriptions tab, its parent, to reload the profile and the current subscription. */
    reloadSubscription: sendParent({ type: 'subscription.changed' }),
  },
  delays: {
    successMessage: CANCEL_SUCCESS_MS,
    resumedMessage: RESUME_SUCCESS_MS,
  },
}).createMachine({
  id: 'subscriptionCancel',
  context: { cancelAt: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'cancel.requested': { target: 'confirming', actions: assign({ error: null }) },
        'resume.requested': 'resuming',
      },
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
      // The reloaded card offers Resume while the message shows.
      on: { 'resume.requested': { target: 'resuming', actions: assign({ cancelAt: null }) } },
    },
    resuming: {
      tags: ['busy'],
      entry: assign({ error: null }),
      invoke: {
        id: 'resumeSubscription',
        src: 'resumeSubscription',
        onDone: { target: 'resumed', actions: 'reloadSubscription' },
        onError: {
          target: 'idle',
          actions: assign({ error: ({ event }) => errorMessage(event.error, billingMessages.resumeFailed) }),
        },
      },
    },
    resumed: {
      tags: ['success'],
      after: { resumedMessage: 'idle' },
      // The reloaded card offers Unsubscribe again while the message shows.
      on: { 'cancel.requested': 'confirming' },
    },
  },
});
