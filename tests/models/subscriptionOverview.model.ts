import { setup } from 'xstate';

/**
 * SPEC §2 Subscriptions, §4 Subscription purchase, §8, §9: the tab loads the plans, the current
 * subscription and the payment mode side by side. A failed load shows its message ('Failed to load
 * subscription plans', 'Failed to load current subscription') with a Retry button, which loads
 * again. After a purchase the current subscription reloads and the card shows it.
 */
export const subscriptionOverviewModel = setup({
  types: {
    events: {} as
      | { type: 'profile.opened' }
      | { type: 'server.allAnswered' }
      | { type: 'server.plansFailed' }
      | { type: 'server.subscriptionFailed' }
      | { type: 'server.paymentsFailed' }
      | { type: 'server.allFailed' }
      | { type: 'retry.clicked' }
      | { type: 'plan.boughtNothingDue' }
      | { type: 'server.subscriptionAnswered' },
  },
}).createMachine({
  id: 'subscriptionOverviewModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'profile.opened': 'loading' } },
    loading: {
      on: {
        'server.allAnswered': 'loaded',
        'server.plansFailed': 'failed',
        'server.subscriptionFailed': 'failed',
        'server.paymentsFailed': 'failed',
        'server.allFailed': 'failed',
      },
    },
    /** Each failed load's message, with Retry. */
    failed: { on: { 'retry.clicked': 'retrying' } },
    /** Loading again; the spec is silent on the earlier messages, which stay until the answers. */
    retrying: { on: { 'server.allAnswered': 'loaded', 'server.allFailed': 'failed' } },
    /** Plans offered, no subscription yet. */
    loaded: { on: { 'plan.boughtNothingDue': 'reloading' } },
    /** 'Subscription successful!' while the current subscription loads again. */
    reloading: { on: { 'server.subscriptionAnswered': 'subscribed' } },
    subscribed: {},
  },
});
