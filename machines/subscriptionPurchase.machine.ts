import { assertEvent, assign, fromPromise, sendParent, setup } from 'xstate';
import { errorMessage } from './services/errors';
import { SUCCESS_NOTICE_MS, successNotice } from './shared/notice';
import { VERIFY_FALLBACK, createSubscription, verifySubscription } from './services/subscriptions';
import type { CreateSubscriptionResponse, SubscriptionPlan } from '../server/src/contract/subscriptions';
import { PAYMENT_FAILED, confirmCardPayment, type PaymentMethodInput } from './services/confirmPayment';

export const SUBSCRIPTION_SUCCESS_MESSAGE = 'Subscription successful!';
export const PAYMENT_FALLBACK = 'An error occurred';

export type SubscriptionPurchaseEvent =
  /** The plan list offers only plans the server would sell (see planOffers); the server still decides. */
  | { type: 'plan.chosen'; plan: SubscriptionPlan }
  | { type: 'payment.submitted'; method: PaymentMethodInput }
  | { type: 'payment.dismissed' }
  /** Another flow of the tab started: its outcome replaces this one's message. */
  | { type: 'notice.cleared' };

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
    /** Tells the tab a purchase started, so the other flows' messages give way to its outcome. */
    announceStart: sendParent({ type: 'purchase.started' }),
  },
  delays: {
    successMessage: SUCCESS_NOTICE_MS,
  },
  guards: {
    noPaymentDue: (_, created: CreateSubscriptionResponse) => created.clientSecret === null,
  },
}).createMachine({
  id: 'subscriptionPurchase',
  context: { plan: null, clientSecret: null, subscriptionId: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'plan.chosen': { target: 'creating', actions: [assign({ plan: ({ event }) => event.plan, error: null }), 'announceStart'] },
        'notice.cleared': { actions: assign({ error: null }) },
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
          actions: assign({
            error: ({ event }) => errorMessage(event.error, 'Failed to initiate subscription: Failed to create subscription'),
          }),
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
      ...successNotice('idle'),
      // The plans stay blocked while the new subscription renews, so no choice can come during the message.
      on: { 'notice.cleared': 'idle' },
    },
  },
});
