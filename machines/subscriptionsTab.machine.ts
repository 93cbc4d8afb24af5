import { enqueueActions, sendTo, setup, type SnapshotFrom } from 'xstate';
import type { SubscriptionPlan } from '../server/src/contract/subscriptions';
import { billingHistoryMachine } from './billingHistory.machine';
import { cardOnFileMachine } from './cardOnFile.machine';
import { manageBillingMachine } from './manageBilling.machine';
import { subscriptionCancelMachine } from './subscriptionCancel.machine';
import { subscriptionOverviewMachine } from './subscriptionOverview.machine';
import { subscriptionPurchaseMachine } from './subscriptionPurchase.machine';
import { subscriptionRefundMachine } from './subscriptionRefund.machine';

export type SubscriptionsTabEvent =
  | { type: 'plan.chosen'; plan: SubscriptionPlan }
  /** "Manage billing": the tab adds the payment mode the overview loaded. */
  | { type: 'billing.requested' }
  /** Sent by purchase and cancel (or resume) when the member's subscription changed on the server. */
  | { type: 'subscription.changed' }
  /** Sent by manage billing when the card on file was replaced. */
  | { type: 'card.changed' }
  /** Sent by purchase, and by cancel (or resume), when it asks the server: its outcome replaces the other's message. */
  | { type: 'purchase.started' }
  | { type: 'cancel.started' }
  /** Sent by refund when it asks the server (the money-back guarantee). */
  | { type: 'refund.started' };

/**
 * The Subscriptions tab: it owns the overview, purchase, cancel, refund, billing history, manage-billing and
 * card-on-file flows, reloads the overview, the billing history and the card on file when a purchase,
 * cancel or resume changed the subscription, and the card on file when a card update replaced it; it
 * keeps one outcome on screen: a flow that starts clears the other's message.
 */
export const subscriptionsTabMachine = setup({
  types: {
    events: {} as SubscriptionsTabEvent,
  },
  actors: {
    overview: subscriptionOverviewMachine,
    purchase: subscriptionPurchaseMachine,
    cancel: subscriptionCancelMachine,
    refund: subscriptionRefundMachine,
    billingHistory: billingHistoryMachine,
    manageBilling: manageBillingMachine,
    cardOnFile: cardOnFileMachine,
  },
  // Stryker disable next-line ObjectLiteral: a placeholder the app provides; XState skips a missing action the same way.
  actions: {
    /** Reloads the profile page's data (its loader), which shows the plan too. */
    reloadProfile: () => {},
  },
}).createMachine({
  id: 'subscriptionsTab',
  invoke: [
    { id: 'overview', src: 'overview' },
    { id: 'purchase', src: 'purchase' },
    { id: 'cancel', src: 'cancel' },
    { id: 'refund', src: 'refund' },
    { id: 'billingHistory', src: 'billingHistory' },
    { id: 'manageBilling', src: 'manageBilling' },
    { id: 'cardOnFile', src: 'cardOnFile' },
  ],
  on: {
    'plan.chosen': {
      actions: sendTo('purchase', ({ event }) => event),
    },
    'billing.requested': {
      actions: enqueueActions(({ enqueue, self }) => {
        // Stryker disable next-line OptionalChaining: the overview is invoked from the tab's start, so it is always there.
        const payments = self.getSnapshot().children.overview?.getSnapshot().context.payments;
        // Until the payment mode has loaded there is nothing to manage with.
        if (payments) enqueue.sendTo('manageBilling', { type: 'billing.requested', mode: payments.mode });
      }),
    },
    'subscription.changed': {
      actions: [
        sendTo('overview', { type: 'subscription.changed' }),
        sendTo('billingHistory', { type: 'subscription.changed' }),
        // A purchase saves its paying card.
        sendTo('cardOnFile', { type: 'card.changed' }),
        'reloadProfile',
      ],
    },
    'card.changed': { actions: sendTo('cardOnFile', { type: 'card.changed' }) },
    'purchase.started': { actions: [sendTo('cancel', { type: 'notice.cleared' }), sendTo('refund', { type: 'notice.cleared' })] },
    'cancel.started': { actions: [sendTo('purchase', { type: 'notice.cleared' }), sendTo('refund', { type: 'notice.cleared' })] },
    'refund.started': { actions: [sendTo('purchase', { type: 'notice.cleared' }), sendTo('cancel', { type: 'notice.cleared' })] },
  },
});

/** The tab's flows: invoked from its start, so present for as long as the tab lives. */
export function subscriptionFlows(snapshot: SnapshotFrom<typeof subscriptionsTabMachine>) {
  const { overview, purchase, cancel, refund, billingHistory, manageBilling, cardOnFile } = snapshot.children;
  if (!overview || !purchase || !cancel || !refund || !billingHistory || !manageBilling || !cardOnFile) {
    throw new Error('The Subscriptions tab has not started its flows');
  }
  return { overview, purchase, cancel, refund, billingHistory, manageBilling, cardOnFile };
}
