import type { PaymentMode, PlanInterval, SubscriptionStatus } from '../contract/subscriptions';
import type { CardOnFile, Invoice } from '../contract/billing';

/**
 * Payment gateway: what the subscription module needs from a payment provider.
 *
 * Two implementations: StripeGateway (the official `stripe` SDK) and SandboxGateway (in-process,
 * deterministic, used when no Stripe keys are configured so the whole flow works offline).
 * Everything is expressed in the provider's vocabulary (Stripe's statuses, customer and
 * subscription ids, a client secret the browser confirms the first payment with).
 */

/** A subscription as the gateway knows it. */
export interface GatewaySubscription {
  id: string;
  customerId: string;
  status: SubscriptionStatus;
  priceId: string | null;
  startDate: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  /** When it will end (cancel at period end), if set. */
  cancelAt: Date | null;
}

export interface CreatedSubscription {
  subscriptionId: string;
  /** Secret of the first invoice's payment, confirmed by the browser (null if nothing is due). */
  clientSecret: string | null;
  status: SubscriptionStatus;
  currentPeriodEnd: Date | null;
  subscription: GatewaySubscription;
}

/** A verified webhook event, reduced to what the subscription module applies. */
export interface WebhookEvent {
  id: string;
  type: string;
  /** Seconds since the epoch (Stripe's event.created). */
  created: number;
  /** Set for customer.subscription.* events: the subscription as of the event. */
  subscription: GatewaySubscription | null;
  /** The subscription the event is about (subscription events, and invoices of a subscription). */
  subscriptionId: string | null;
}

/** A refund made at the gateway; amount in cents. */
export interface GatewayRefund {
  refundId: string;
  amount: number;
  currency: string;
}

/** One page of a customer's invoices, newest first. */
export interface InvoicePage {
  invoices: Invoice[];
  hasMore: boolean;
}

export interface CustomerInput {
  userId: number;
  /** Stable per user; used as idempotency key so a retried request creates one customer. */
  userDocumentId: string;
  email: string;
  username: string;
}

export interface PaymentGateway {
  readonly mode: PaymentMode;
  /** The time the gateway's subscriptions run on: the real time at Stripe, the sandbox's own clock (tests move it). */
  now(): Date;
  /** Publishable key the browser loads Stripe.js with (null in sandbox mode). */
  readonly publishableKey: string | null;
  createCustomer(input: CustomerInput): Promise<{ customerId: string }>;
  /**
   * `attempt` numbers the member's purchase attempts: the same number again (a retry after the
   * gateway timed out or failed mid-call) must not create a second subscription.
   */
  createSubscription(customerId: string, priceId: string, attempt?: number): Promise<CreatedSubscription>;
  retrieveSubscription(subscriptionId: string): Promise<GatewaySubscription>;
  cancelAtPeriodEnd(subscriptionId: string): Promise<GatewaySubscription>;
  /** Undoes cancelAtPeriodEnd (the subscription renews again). */
  resume(subscriptionId: string): Promise<GatewaySubscription>;
  /** The customer's invoices, newest first: `limit` of them after skipping `offset`. */
  listInvoices(customerId: string, offset: number, limit: number): Promise<InvoicePage>;
  /**
   * The card the customer's payments are taken from (null when none is saved): Stripe charges the
   * subscription's default payment method first, else the customer's default. A deleted customer has none.
   */
  cardOnFile(customerId: string, subscriptionId: string | null): Promise<CardOnFile | null>;
  /** A billing portal session's URL (Stripe's Customer Portal); the sandbox has none and throws invalid_request. */
  createPortalSession(customerId: string, returnUrl: string): Promise<{ url: string }>;
  /**
   * Refunds the payment of one of the customer's invoices in full (the money-back guarantee): Stripe's
   * Refunds API on the invoice's payment, or the sandbox's record. Idempotent per invoice: asked again,
   * it answers the same refund and moves no more money. An invoice of another customer is not_found.
   */
  refundInvoice(customerId: string, invoiceId: string): Promise<GatewayRefund>;
  /** Ends the subscription now (account deletion, abandoned incomplete subscriptions). */
  cancelNow(subscriptionId: string): Promise<GatewaySubscription>;
  /**
   * Ends a subscription still waiting for its first payment so that it can no longer be paid; one
   * paid meanwhile (or already ended) is left as it is. Answers the subscription's state after.
   */
  endUnpaid(subscriptionId: string): Promise<GatewaySubscription>;
  /**
   * The client secret of the subscription's first payment while it can still be paid (the
   * subscription is incomplete and its payment open), else null. Lets a racing duplicate of a
   * purchase answer the same payment instead of making a second one payable.
   */
  paymentSecret(subscriptionId: string): Promise<string | null>;
  /**
   * Deletes the customer and the personal data the provider holds with it (account deletion). The
   * provider ends the customer's subscriptions too. A customer that is already gone is not an error.
   */
  deleteCustomer(customerId: string): Promise<void>;
  /** Verifies the signature over the raw body; throws GatewayError('signature') if it does not match. */
  constructWebhookEvent(rawBody: string | Buffer, signatureHeader: string | undefined): WebhookEvent;
}

export type GatewayErrorKind =
  | 'card' // the card was refused or is invalid
  | 'not_found' // no such customer / subscription
  | 'invalid_request' // the provider refused the request (configuration problem, e.g. unknown price)
  | 'signature' // webhook signature missing or wrong
  | 'unavailable'; // network, authentication or provider error

export class GatewayError extends Error {
  constructor(
    readonly kind: GatewayErrorKind,
    message: string,
    readonly code?: string,
    readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}

export const isGatewayError = (error: unknown): error is GatewayError => error instanceof GatewayError;

/** date + 1 month (clamped to the month's last day, like Stripe's billing anchor) or + 1 year. */
export function addInterval(from: Date, interval: PlanInterval, count = 1): Date {
  const months = interval === 'year' ? 12 * count : count;
  const result = new Date(from.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}
