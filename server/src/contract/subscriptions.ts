import type { SandboxCard } from './sandboxCard';

/** Stripe's subscription statuses. */
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

/** Statuses after which a subscription never changes again. */
export const ENDED_STATUSES: readonly SubscriptionStatus[] = ['canceled', 'incomplete_expired'];

/** Stripe leaves an unpaid first invoice open this long, then the subscription becomes incomplete_expired. */
export const INCOMPLETE_LIFETIME_MS = 23 * 60 * 60 * 1000;

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

/** GET /api/subscriptions/current: the subscription, and until when its first payment can still be refunded. */
export type CurrentSubscriptionAnswer = CurrentSubscription & {
  /** The end of the money-back guarantee on the member's first payment (ISO 8601), or null once past or with none paid. */
  refundableUntil: string | null;
  /** While refundableUntil is set: that first payment's amount in cents, what a refund gives back; else null. */
  refundableAmount: number | null;
};

/** SPEC §1 and §9, and the Refund Policy: the member's first payment is refunded in full if asked within this many days. */
export const MONEY_BACK_DAYS = 30;
/** The same, in milliseconds. */
export const MONEY_BACK_MS = MONEY_BACK_DAYS * 24 * 60 * 60 * 1000;

/** An invoice as the money-back guarantee reads it. */
type Payment = { date: string; status: string; amount: number; paidAt?: string | null };
/** When a payment was made: its paid time when the provider gives one, else when it was issued. */
const paidTime = (invoice: Payment): number => Date.parse(invoice.paidAt ?? invoice.date);

/**
 * The end of the money-back guarantee (ISO 8601): MONEY_BACK_DAYS after the member's first payment,
 * while that is still ahead of `now`; otherwise null (no payment yet, or the window is past).
 */
export function refundableUntil(invoices: readonly Payment[], now: number): string | null {
  const first = firstPayment(invoices);
  if (!first) return null;
  const until = paidTime(first) + MONEY_BACK_MS;
  return until > now ? new Date(until).toISOString() : null;
}

/** The member's first payment: their oldest paid invoice with money paid (the one the guarantee covers), or null. */
export function firstPayment<T extends Payment>(invoices: readonly T[]): T | null {
  let first: T | null = null;
  for (const invoice of invoices) {
    if (invoice.status !== 'paid' || !(invoice.amount > 0)) continue;
    if (!first || paidTime(invoice) < paidTime(first)) first = invoice;
  }
  return first;
}

/** POST /api/subscriptions/refund: the first payment, refunded in full (amount in cents). */
export type RefundSubscriptionResponse = { invoiceId: string; amount: number; currency: string };

/** Why the money-back guarantee's refund is refused, word for word in the app and in the server's answers. */
export const refundRefusals = {
  nothingToRefund: 'You have no subscription to refund.',
  alreadyRefunded: `You have already used the ${MONEY_BACK_DAYS}-day money-back guarantee.`,
  windowPassed: `The ${MONEY_BACK_DAYS}-day money-back guarantee has ended: it covers your first payment for ${MONEY_BACK_DAYS} days.`,
} as const;

/** SPEC §6: why a purchase is refused, word for word in the app and in the server's answers. */
export const purchaseRefusals = {
  inactivePlan: 'This plan is no longer available.',
  existingSubscription: 'You already have an active subscription.',
} as const;

/** A subscription past its first payment that has not ended: the member holds its plan (even if set to cancel). */
export function holdsPlan(subscription: { status: SubscriptionStatus }): boolean {
  return subscription.status !== 'incomplete' && !ENDED_STATUSES.includes(subscription.status);
}

/**
 * SPEC §6: a subscription blocks a purchase unless it ended, still waits for its first payment
 * (incomplete) or is set to cancel at period end. The app shows the plans it blocks as such; the
 * server checks each open one of the member.
 */
export function blocksPurchase(subscription: { status: SubscriptionStatus; cancel_at_period_end: boolean | null } | null): boolean {
  return subscription !== null && holdsPlan(subscription) && !subscription.cancel_at_period_end;
}

/** POST /api/subscriptions */
export type CreateSubscriptionPayload = { priceId: string };
/** clientSecret is null when the provider needs no first payment. */
export type CreateSubscriptionResponse = { clientSecret: string | null; subscriptionId: string };

/** POST /api/subscriptions/cancel: when access ends (null when the provider gave no date). */
export type CancelSubscriptionResponse = { cancelAt: string | null };

export type PaymentMode = 'stripe' | 'sandbox';

/** GET /api/payments/config */
export type PaymentsConfig = { mode: PaymentMode; publishableKey: string | null };

/** POST /api/payments/sandbox/confirm */
export type SandboxConfirmPayload = { clientSecret: string } & SandboxCard;
export type SandboxConfirmResponse = { paymentIntent: { id: string; status: string } };
