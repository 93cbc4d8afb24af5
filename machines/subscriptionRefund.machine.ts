import { assign, fromPromise, sendParent, setup } from 'xstate';
import { formatAmount } from '../server/src/contract/billing';
import type { RefundSubscriptionResponse } from '../server/src/contract/subscriptions';
import { errorMessage } from './services/errors';
import { REFUND_FALLBACK, requestRefund } from './services/subscriptions';
import { SUCCESS_NOTICE_MS, successNotice } from './shared/notice';

/** What the Subscriptions tab says once the money-back guarantee's refund is made (the e-mail receipt says more). */
export function refundedMessage(refund: RefundSubscriptionResponse): string {
  return `Your first payment of ${formatAmount(refund.amount)} has been refunded and your subscription has ended.`;
}

export type SubscriptionRefundEvent =
  | { type: 'refund.requested' }
  | { type: 'refund.confirmed' }
  | { type: 'refund.dismissed' }
  /** A purchase, cancel or resume started in the tab: its outcome replaces this flow's message. */
  | { type: 'notice.cleared' };

/**
 * "Request a refund" (issue 30 item 3): a confirmation that states the amount and that access ends
 * now, then POST /api/subscriptions/refund; the tab reloads the subscription, billing history and card.
 */
export const subscriptionRefundMachine = setup({
  types: {
    context: {} as { refund: RefundSubscriptionResponse | null; error: string | null },
    events: {} as SubscriptionRefundEvent,
  },
  actors: {
    requestRefund: fromPromise<RefundSubscriptionResponse>(({ signal }) => requestRefund({ signal })),
  },
  actions: {
    /** Tells the Subscriptions tab, its parent, to reload the member's subscription and billing. */
    reloadSubscription: sendParent({ type: 'subscription.changed' }),
    /** Tells the tab a refund started, so another flow's message gives way to its outcome. */
    announceStart: sendParent({ type: 'refund.started' }),
  },
  delays: {
    successMessage: SUCCESS_NOTICE_MS,
  },
}).createMachine({
  id: 'subscriptionRefund',
  context: { refund: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'refund.requested': { target: 'confirming', actions: assign({ error: null }) },
        'notice.cleared': { actions: assign({ error: null }) },
      },
    },
    confirming: {
      tags: ['dialog'],
      on: {
        'refund.confirmed': 'refunding',
        'refund.dismissed': 'idle',
      },
    },
    refunding: {
      tags: ['dialog', 'busy'],
      entry: 'announceStart',
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'requestRefund',
        src: 'requestRefund',
        onDone: { target: 'refunded', actions: [assign({ refund: ({ event }) => event.output }), 'reloadSubscription'] },
        // A refusal means the tab was out of date (the 30 days ran out, or another tab had the refund): it reloads.
        onError: {
          target: 'idle',
          actions: [assign({ error: ({ event }) => errorMessage(event.error, REFUND_FALLBACK) }), 'reloadSubscription'],
        },
      },
    },
    refunded: {
      ...successNotice({ target: 'idle', actions: assign({ refund: null }) }),
      on: { 'notice.cleared': { target: 'idle', actions: assign({ refund: null }) } },
    },
  },
});
