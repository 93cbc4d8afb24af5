import { assertEvent, assign, fromPromise, raise, sendParent, setup } from 'xstate';
import { errorMessage } from '../src/api/errors';
import { VERIFY_FALLBACK, createSubscription, verifySubscription } from '../src/api/subscriptions';
import type { CreateSubscriptionResponse, CurrentSubscription, SubscriptionPlan } from '../server/src/contract/subscriptions';
import { PAYMENT_FAILED, confirmCardPayment, type PaymentMethodInput } from '../src/payments/confirmPayment';

export const SUBSCRIPTION_SUCCESS_MESSAGE = 'Subscription successful!';
export const SUBSCRIPTION_SUCCESS_MS = 3000;
export const PAYMENT_FALLBACK = 'An error occurred';
export const purchaseRefusals = {
  inactivePlan: 'This plan is no longer available.',
  existingSubscription: 'You already have an active subscription.',
} as const;

/** SPEC §6: a subscription blocks a purchase unless it is set to cancel at period end. */
export function blocksPurchase(current: CurrentSubscription | null): boolean {
  if (!current || ['canceled', 'incomplete', 'incomplete_expired'].includes(current.status)) return false;
  return !current.cancel_at_period_end;
}

export type SubscriptionPurchaseEvent =
  | { type: 'plan.chosen'; plan: SubscriptionPlan; current: CurrentSubscription | null }
  | { type: 'payment.submitted'; method: PaymentMethodInput }
  | { type: 'payment.dismissed' };

type PurchaseContext = {
  plan: SubscriptionPlan | null;
  clientSecret: string | null;
  subscriptionId: string | null;
  error: string | null;
};

export const subscriptionPurchaseMachine = setup({
  types: {
    context: {} as PurchaseContext,
    events: {} as SubscriptionPurchaseEvent,
  },
  actors: {
    createSubscription: fromPromise<CreateSubscriptionResponse, { priceId: string }>(({ input, signal }) =>
      createSubscription(input.priceId, { signal }),
    ),
    confirmPayment: fromPromise<{ status: string }, { clientSecret: string; method: PaymentMethodInput }>(({ input }) =>
      confirmCardPayment(input.clientSecret, input.method),
    ),
    verifySubscription: fromPromise<void, { subscriptionId: string }>(({ input, signal }) =>
      verifySubscription(input.subscriptionId, { signal }),
    ),
  },
  actions: {
    /** Tells the Subscriptions tab, its parent, to reload the profile and the current subscription. */
    reloadSubscription: sendParent({ type: 'subscription.changed' }),
  },
  delays: {
    successMessage: SUBSCRIPTION_SUCCESS_MS,
  },
  guards: {
    noPaymentDue: (_, created: CreateSubscriptionResponse) => created.clientSecret === null,
    planInactive: ({ event }) => {
      assertEvent(event, 'plan.chosen');
      return !event.plan.is_active;
    },
    alreadySubscribed: ({ event }) => {
      assertEvent(event, 'plan.chosen');
      return blocksPurchase(event.current);
    },
  },
}).createMachine({
  id: 'subscriptionPurchase',
  context: { plan: null, clientSecret: null, subscriptionId: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'plan.chosen': [
          { guard: 'planInactive', actions: assign({ error: purchaseRefusals.inactivePlan }) },
          { guard: 'alreadySubscribed', actions: assign({ error: purchaseRefusals.existingSubscription }) },
          { target: 'creating', actions: assign({ plan: ({ event }) => event.plan, error: null }) },
        ],
      },
    },
    creating: {
      tags: ['busy'],
      invoke: {
        id: 'createSubscription',
        src: 'createSubscription',
        // Stryker disable next-line OptionalChaining,StringLiteral: creating is only entered with a plan chosen; the fallback is for the type.
        input: ({ context }) => ({ priceId: context.plan?.stripe_price_id ?? '' }),
        onDone: [
          {
            // The provider took no first payment (e.g. a free trial): nothing to pay, only to verify.
            guard: { type: 'noPaymentDue', params: ({ event }) => event.output },
            target: 'verifying',
            actions: assign({ subscriptionId: ({ event }) => event.output.subscriptionId }),
          },
          {
            target: 'paying',
            actions: assign({
              clientSecret: ({ event }) => event.output.clientSecret,
              subscriptionId: ({ event }) => event.output.subscriptionId,
            }),
          },
        ],
        onError: {
          target: 'idle',
          actions: assign({ error: ({ event }) => errorMessage(event.error, 'Failed to initiate subscription: Failed to create subscription') }),
        },
      },
    },
    paying: {
      tags: ['dialog'],
      on: {
        'payment.submitted': 'confirming',
        'payment.dismissed': { target: 'idle', actions: assign({ clientSecret: null, subscriptionId: null }) },
      },
    },
    confirming: {
      tags: ['dialog', 'busy'],
      invoke: {
        id: 'confirmPayment',
        src: 'confirmPayment',
        input: ({ context, event }) => {
          assertEvent(event, 'payment.submitted');
          // Stryker disable next-line StringLiteral: paying, the only way in, is entered only with a clientSecret.
          return { clientSecret: context.clientSecret ?? '', method: event.method };
        },
        onDone: [
          { guard: ({ event }) => event.output.status === 'succeeded', target: 'verifying' },
          { target: 'idle', actions: assign({ error: PAYMENT_FAILED }) },
        ],
        onError: {
          target: 'idle',
          actions: assign({ error: ({ event }) => errorMessage(event.error, PAYMENT_FALLBACK) }),
        },
      },
    },
    verifying: {
      tags: ['dialog', 'busy'],
      invoke: {
        id: 'verifySubscription',
        src: 'verifySubscription',
        // Stryker disable next-line StringLiteral: both ways in (creating, confirming) come after the server gave the subscriptionId.
        input: ({ context }) => ({ subscriptionId: context.subscriptionId ?? '' }),
        onDone: { target: 'succeeded', actions: 'reloadSubscription' },
        onError: {
          target: 'idle',
          actions: [assign({ error: ({ event }) => errorMessage(event.error, VERIFY_FALLBACK) }), 'reloadSubscription'],
        },
      },
    },
    succeeded: {
      tags: ['success'],
      after: { successMessage: 'idle' },
      on: {
        // Choosing again during the success message is handled as from idle.
        'plan.chosen': { target: 'idle', actions: raise(({ event }) => event) },
      },
    },
  },
});
