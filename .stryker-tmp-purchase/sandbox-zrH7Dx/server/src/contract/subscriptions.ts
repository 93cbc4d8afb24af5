/** Stripe's subscription statuses. */
// @ts-nocheck

export const SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export type PlanInterval = 'month' | 'year';

/** SPEC §3 subscription plan, as GET /api/subscription-plans lists it under data; amount is in cents. */
export type SubscriptionPlan = {
  id: number;
  documentId: string;
  name: string;
  stripe_price_id: string;
  stripe_product_id: string | null;
  amount: number;
  currency: string;
  duration: PlanInterval;
  is_active: boolean;
};

export type SubscriptionPlansResponse = { data: SubscriptionPlan[] };

/** SPEC §3 current subscription: GET /api/subscriptions/current (or null) and GET /api/subscriptions/{id}/verify. */
export type CurrentSubscription = {
  /** The payment provider's subscription id. */
  id: string;
  status: SubscriptionStatus;
  /** Null when the plan was deleted since (the server keeps the subscription). */
  plan: { id: number; productName: string; amount: number; interval: PlanInterval } | null;
  startDate: string | null;
  currentPeriodEnd: string | null;
  cancel_at_period_end: boolean;
};

/** POST /api/subscriptions */
export type CreateSubscriptionPayload = { priceId: string };
/** clientSecret is null when the provider needs no first payment. */
export type CreateSubscriptionResponse = { clientSecret: string | null; subscriptionId: string };

/** POST /api/subscriptions/cancel: when access ends (null when the provider gave no date). */
export type CancelSubscriptionResponse = { cancelAt: string | null };

export type PaymentMode = 'stripe' | 'sandbox';

/** GET /api/payments/config */
export type PaymentsConfig = { mode: PaymentMode; publishableKey: string | null };

/** The card fields of the sandbox's payment form. */
export type SandboxCard = { cardNumber: string; expiry: string; cvc: string };
/** POST /api/payments/sandbox/confirm */
export type SandboxConfirmPayload = { clientSecret: string } & SandboxCard;
export type SandboxConfirmResponse = { paymentIntent: { id: string; status: string } };
