import { sendTo, setup, type SnapshotFrom } from 'xstate';
import type { SubscriptionPlan } from '../server/src/contract/subscriptions';
import { subscriptionCancelMachine } from './subscriptionCancel.machine';
import { subscriptionOverviewMachine } from './subscriptionOverview.machine';
import { subscriptionPurchaseMachine } from './subscriptionPurchase.machine';

export type SubscriptionsTabEvent =
  | { type: 'plan.chosen'; plan: SubscriptionPlan }
  /** Sent by purchase and cancel when the member's subscription changed on the server. */
  | { type: 'subscription.changed' };

/**
 * The Subscriptions tab: it owns the overview, purchase and cancel flows, gives the purchase the
 * current subscription it must check, and reloads the overview when a purchase or cancel changed it.
 */
export const subscriptionsTabMachine = setup({
  types: {
    events: {} as SubscriptionsTabEvent,
  },
  actors: {
    overview: subscriptionOverviewMachine,
    purchase: subscriptionPurchaseMachine,
    cancel: subscriptionCancelMachine,
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
    'subscription.changed': {
      actions: [sendTo('overview', { type: 'subscription.changed' }), 'reloadProfile'],
    },
  },
});

/** The tab's three flows: invoked from its start, so present for as long as the tab lives. */
export function subscriptionFlows(snapshot: SnapshotFrom<typeof subscriptionsTabMachine>) {
  const { overview, purchase, cancel } = snapshot.children;
  if (!overview || !purchase || !cancel) throw new Error('The Subscriptions tab has not started its flows');
  return { overview, purchase, cancel };
}
