import { enqueueActions, sendTo, setup, type SnapshotFrom } from 'xstate';
import type { SubscriptionPlan } from '../server/src/contract/subscriptions';
import { billingHistoryMachine } from './billingHistory.machine';
import { manageBillingMachine } from './manageBilling.machine';
import { subscriptionCancelMachine } from './subscriptionCancel.machine';
import { subscriptionOverviewMachine } from './subscriptionOverview.machine';
import { subscriptionPurchaseMachine } from './subscriptionPurchase.machine';

export type SubscriptionsTabEvent =
  | { type: 'plan.chosen'; plan: SubscriptionPlan }
  /** "Manage billing": the tab adds the payment mode the overview loaded. */
  | { type: 'billing.requested' }
  /** Sent by purchase and cancel (or resume) when the member's subscription changed on the server. */
  | { type: 'subscription.changed' };

/**
 * The Subscriptions tab: it owns the overview, purchase, cancel, billing history and manage-billing
 * flows, gives the purchase the current subscription it must check, and reloads the overview and the
 * billing history when a purchase, cancel or resume changed the subscription.
 */
export const subscriptionsTabMachine = setup({
  types: {
    events: {} as SubscriptionsTabEvent,
  },
  actors: {
    overview: subscriptionOverviewMachine,
    purchase: subscriptionPurchaseMachine,
    cancel: subscriptionCancelMachine,
    billingHistory: billingHistoryMachine,
    manageBilling: manageBillingMachine,
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
    { id: 'billingHistory', src: 'billingHistory' },
    { id: 'manageBilling', src: 'manageBilling' },
  ],
  on: {
    'plan.chosen': {
      actions: sendTo('purchase', ({ event, self }) => ({
        type: 'plan.chosen' as const,
        plan: event.plan,
        // Stryker disable next-line OptionalChaining: the overview is invoked from the tab's start, so it is always there.
        current: self.getSnapshot().children.overview?.getSnapshot().context.current ?? null,
      })),
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
      actions: [sendTo('overview', { type: 'subscription.changed' }), sendTo('billingHistory', { type: 'subscription.changed' }), 'reloadProfile'],
    },
  },
});

/** The tab's flows: invoked from its start, so present for as long as the tab lives. */
export function subscriptionFlows(snapshot: SnapshotFrom<typeof subscriptionsTabMachine>) {
  const { overview, purchase, cancel, billingHistory, manageBilling } = snapshot.children;
  if (!overview || !purchase || !cancel || !billingHistory || !manageBilling) throw new Error('The Subscriptions tab has not started its flows');
  return { overview, purchase, cancel, billingHistory, manageBilling };
}
