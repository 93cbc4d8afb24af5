import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { errorMessage } from './services/errors';
import {
  CURRENT_FALLBACK,
  PLANS_FALLBACK,
  getCurrentSubscription,
  getPaymentsConfig,
  getSubscriptionPlans,
} from './services/subscriptions';
import {
  holdsPlan,
  purchaseRefusals,
  blocksPurchase,
  type CurrentSubscriptionAnswer,
  type PaymentsConfig,
  type SubscriptionPlan,
} from '../server/src/contract/subscriptions';

type OverviewContext = {
  plans: SubscriptionPlan[];
  current: CurrentSubscriptionAnswer | null;
  payments: PaymentsConfig | null;
  plansError: string | null;
  currentError: string | null;
  paymentsError: string | null;
};

export type SubscriptionOverviewEvent = { type: 'subscription.changed' } | { type: 'overview.retried' };

/** What the Subscriptions tab shows: plans, the current subscription and the payment mode, loaded side by side. */
export const subscriptionOverviewMachine = setup({
  types: {
    context: {} as OverviewContext,
    events: {} as SubscriptionOverviewEvent,
  },
  actors: {
    loadPlans: fromPromise<SubscriptionPlan[]>(({ signal }) => getSubscriptionPlans({ signal })),
    loadCurrent: fromPromise<CurrentSubscriptionAnswer | null>(({ signal }) => getCurrentSubscription({ signal })),
    loadPayments: fromPromise<PaymentsConfig>(({ signal }) => getPaymentsConfig({ signal })),
  },
  guards: {
    somethingFailed: ({ context }) => Boolean(context.plansError || context.currentError || context.paymentsError),
  },
}).createMachine({
  id: 'subscriptionOverview',
  context: { plans: [], current: null, payments: null, plansError: null, currentError: null, paymentsError: null },
  type: 'parallel',
  on: {
    'overview.retried': {
      guard: 'somethingFailed',
      target: ['.plans.loading', '.current.loading', '.payments.loading'],
    },
  },
  states: {
    plans: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'loadPlans',
            src: 'loadPlans',
            onDone: { target: 'loaded', actions: assign({ plans: ({ event }) => event.output, plansError: null }) },
            onError: { target: 'failed', actions: assign({ plansError: ({ event }) => errorMessage(event.error, PLANS_FALLBACK) }) },
          },
        },
        loaded: {},
        failed: {},
      },
    },
    current: {
      // Only the current subscription changed: the plans and the payment mode stay as loaded.
      on: { 'subscription.changed': '.loading' },
      initial: 'loading',
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'loadCurrent',
            src: 'loadCurrent',
            onDone: { target: 'loaded', actions: assign({ current: ({ event }) => event.output, currentError: null }) },
            onError: { target: 'failed', actions: assign({ currentError: ({ event }) => errorMessage(event.error, CURRENT_FALLBACK) }) },
          },
        },
        loaded: {},
        failed: {},
      },
    },
    payments: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'loadPayments',
            src: 'loadPayments',
            onDone: { target: 'ready', actions: assign({ payments: ({ event }) => event.output, paymentsError: null }) },
            onError: {
              target: 'failed',
              actions: assign({ paymentsError: ({ event }) => errorMessage(event.error, 'Payments are unavailable right now.') }),
            },
          },
        },
        ready: {},
        failed: {},
      },
    },
  },
});

/**
 * How the plan list offers a plan: `open` (Subscribe), `blocked` (Subscribe disabled: a renewing subscription
 * blocks it, or the current subscription is still loading) or `none` (no button: retired, or the plan that renews).
 */
export type PlanOffer = { plan: SubscriptionPlan; isCurrent: boolean; offer: 'open' | 'blocked' | 'none' };

/** The plans as the server would treat buying each now (SPEC §6), and its refusal when a subscription blocks them. */
export function planOffers(snapshot: SnapshotFrom<typeof subscriptionOverviewMachine>): { offers: PlanOffer[]; blockedBy: string | null } {
  const { plans, current } = snapshot.context;
  const renews = blocksPurchase(current);
  const loadingCurrent = snapshot.matches({ current: 'loading' });
  const offers = plans.map((plan): PlanOffer => {
    const isCurrent = current !== null && holdsPlan(current) && current.plan?.id === plan.id;
    if (!plan.is_active || (isCurrent && renews)) return { plan, isCurrent, offer: 'none' };
    return { plan, isCurrent, offer: renews || loadingCurrent ? 'blocked' : 'open' };
  });
  return { offers, blockedBy: renews ? purchaseRefusals.existingSubscription : null };
}
