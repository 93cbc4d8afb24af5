import { assign, fromPromise, sendParent, setup } from 'xstate';
import { formatDate } from './rules/dates';
import { errorMessage } from './services/errors';
import { SUCCESS_NOTICE_MS, successNotice } from './shared/notice';
import { billingMessages } from '../server/src/contract/billing';
import type { CancelSubscriptionResponse, CurrentSubscription } from '../server/src/contract/subscriptions';
import { resumeSubscription } from './services/billing';
import { CANCEL_FALLBACK, cancelSubscription } from './services/subscriptions';

/** SPEC §9: the cancel success message disappears after 5000 ms. */
export const CANCEL_SUCCESS_MS = 5000;

/** `cancelAt` is null when the provider gave no end date: access still runs to the period's end. */
export function cancelledMessage(cancelAt: string | null): string {
  const until = cancelAt ? formatDate(cancelAt) : 'the end of your billing period';
  return `Your subscription has been cancelled. You keep access until ${until}.`;
}

export type SubscriptionCancelEvent =
  | { type: 'cancel.requested' }
  | { type: 'cancel.confirmed' }
  | { type: 'cancel.dismissed' }
  /** "Resume subscription" on a subscription set to cancel at period end. */
  | { type: 'resume.requested' }
  /** A purchase started in the tab: its outcome replaces this flow's message. */
  | { type: 'notice.cleared' };

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
    /** Tells the tab a cancel or resume started, so the purchase's message gives way to its outcome. */
    announceStart: sendParent({ type: 'cancel.started' }),
  },
  delays: {
    successMessage: CANCEL_SUCCESS_MS,
    resumedMessage: SUCCESS_NOTICE_MS,
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
        'notice.cleared': { actions: assign({ error: null }) },
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
      entry: 'announceStart',
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
      ...successNotice({ target: 'idle', actions: assign({ cancelAt: null }) }),
      on: {
        // The reloaded card offers Resume while the message shows.
        'resume.requested': { target: 'resuming', actions: assign({ cancelAt: null }) },
        'notice.cleared': { target: 'idle', actions: assign({ cancelAt: null }) },
      },
    },
    resuming: {
      tags: ['busy'],
      entry: [assign({ error: null }), 'announceStart'],
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
      ...successNotice('idle', 'resumedMessage'),
      // The reloaded card offers Unsubscribe again while the message shows.
      on: { 'cancel.requested': 'confirming' },
    },
  },
});
