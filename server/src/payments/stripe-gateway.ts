import Stripe from 'stripe';
import { GatewayError } from './gateway';
import type {
  CreatedSubscription,
  CustomerInput,
  GatewayRefund,
  GatewaySubscription,
  InvoicePage,
  PaymentGateway,
  WebhookEvent,
} from './gateway';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../contract/subscriptions';
import { CARD_BRANDS, INVOICE_STATUSES, type CardBrand, type CardOnFile, type Invoice, type InvoiceStatus } from '../contract/billing';

export interface StripeGatewayOptions {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** API host/port/protocol overrides (tests point the SDK at a local HTTP double). */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  /** Network retries of the SDK (its default when unset); each reuses the request's idempotency key. */
  maxNetworkRetries?: number;
  /** Milliseconds one request to Stripe may take before it counts as failed (the SDK's 80 s when unset). */
  timeoutMs?: number;
  /** Seconds a webhook signature's timestamp may be old (the SDK's default, 300, when unset). */
  webhookTolerance?: number;
}

const toDate = (seconds: number | null | undefined): Date | null =>
  typeof seconds === 'number' && Number.isFinite(seconds) ? new Date(seconds * 1000) : null;

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

const toStatus = (status: string): SubscriptionStatus =>
  (SUBSCRIPTION_STATUSES as readonly string[]).includes(status) ? (status as SubscriptionStatus) : 'incomplete';

/**
 * Stripe object -> GatewaySubscription. Since API version 2025-03-31 (basil) the billing period
 * lives on the subscription items (items.data[].current_period_end); older payloads carry
 * current_period_end on the subscription itself, which is used as a fallback.
 */
export function mapStripeSubscription(subscription: Stripe.Subscription): GatewaySubscription {
  const items = subscription.items?.data ?? [];
  const legacyPeriodEnd = (subscription as unknown as { current_period_end?: number }).current_period_end;
  const itemPeriodEnds = items.map((item) => item.current_period_end).filter((v): v is number => typeof v === 'number');
  const periodEnd = itemPeriodEnds.length > 0 ? Math.min(...itemPeriodEnds) : legacyPeriodEnd;
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer as string | { id: string }) ?? '',
    status: toStatus(subscription.status),
    priceId: items[0]?.price?.id ?? null,
    startDate: toDate(subscription.start_date),
    currentPeriodEnd: toDate(periodEnd),
    cancelAtPeriodEnd: Boolean(subscription.cancel_at_period_end) || subscription.cancel_at != null,
    cancelAt: toDate(subscription.cancel_at) ?? (subscription.cancel_at_period_end ? toDate(periodEnd) : null),
  };
}

/** The subscription an invoice belongs to: invoice.parent.subscription_details (basil+), else invoice.subscription. */
function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const fromParent = invoice.parent?.subscription_details?.subscription;
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription;
  return idOf(fromParent as string | { id: string } | undefined) ?? idOf(legacy);
}

const isoOf = (seconds: number | null | undefined): string | null => toDate(seconds)?.toISOString() ?? null;

/**
 * Stripe invoice -> Invoice. The period is the first line's (a subscription invoice's
 * period_start/period_end describe pending items, not the billing period it pays for).
 */
export function mapStripeInvoice(invoice: Stripe.Invoice): Invoice {
  const status = (INVOICE_STATUSES as readonly string[]).includes(invoice.status ?? '') ? (invoice.status as InvoiceStatus) : 'draft';
  const period = invoice.lines?.data?.[0]?.period;
  return {
    id: invoice.id ?? '',
    date: isoOf(invoice.created) ?? new Date(0).toISOString(),
    amount: status === 'paid' ? invoice.amount_paid : invoice.amount_due,
    currency: invoice.currency,
    status,
    periodStart: isoOf(period?.start ?? invoice.period_start),
    periodEnd: isoOf(period?.end ?? invoice.period_end),
    receiptUrl: invoice.hosted_invoice_url ?? null,
    pdfUrl: invoice.invoice_pdf ?? null,
    // Stripe keeps refunds on the payment, not the invoice: the app marks the ones it made (parts/invoices.ts).
    refunded: false,
    paidAt: isoOf(invoice.status_transitions?.paid_at),
    subscriptionId: invoiceSubscriptionId(invoice),
  };
}

const toBrand = (brand: string): CardBrand => {
  // Legacy card sources name the network in words ("American Express", "MasterCard", "Diners Club").
  const code =
    ({ 'american express': 'amex', 'diners club': 'diners' } as Record<string, string>)[brand.toLowerCase()] ?? brand.toLowerCase();
  return (CARD_BRANDS as readonly string[]).includes(code) ? (code as CardBrand) : 'unknown';
};

/**
 * The card of an expanded default payment method or source: a PaymentMethod of type card, or a
 * legacy Card source. Anything else (an id left unexpanded, a bank account, none) is null.
 */
export function mapStripeCard(value: unknown): CardOnFile | null {
  if (!value || typeof value !== 'object') return null;
  type CardFields = Pick<Stripe.PaymentMethod.Card, 'brand' | 'last4' | 'exp_month' | 'exp_year'>;
  const object = value as { object?: string; card?: CardFields | null };
  const card = object.object === 'payment_method' ? object.card : object.object === 'card' ? (value as CardFields) : null;
  if (!card?.last4 || !card.brand) return null;
  return { brand: toBrand(card.brand), last4: card.last4, expMonth: card.exp_month, expYear: card.exp_year };
}

/** The client secret of the subscription's latest invoice, when latest_invoice.confirmation_secret was expanded. */
function confirmationSecret(subscription: Stripe.Subscription): string | null {
  const invoice = subscription.latest_invoice as Stripe.Invoice | string | null;
  if (!invoice || typeof invoice !== 'object') return null;
  return (
    invoice.confirmation_secret?.client_secret ??
    // pre-basil payload shape (latest_invoice.payment_intent expanded)
    (invoice as unknown as { payment_intent?: { client_secret?: string } | null }).payment_intent?.client_secret ??
    null
  );
}

function translateError(error: unknown): GatewayError {
  const e = error as { type?: string; message?: string; code?: string; statusCode?: number };
  const message = e?.message || 'Stripe request failed';
  switch (e?.type) {
    case 'StripeCardError':
      return new GatewayError('card', message, e.code, error);
    case 'StripeInvalidRequestError':
      return new GatewayError(
        e.code === 'resource_missing' || e.statusCode === 404 ? 'not_found' : 'invalid_request',
        message,
        e.code,
        error,
      );
    default:
      return new GatewayError('unavailable', message, e?.code, error);
  }
}

export class StripeGateway implements PaymentGateway {
  readonly mode = 'stripe' as const;
  now(): Date {
    return new Date();
  }
  readonly publishableKey: string;
  /** The SDK client (exposed for tests and for webhooks.generateTestHeaderString). */
  readonly stripe: Stripe;
  private readonly webhookSecret: string;
  private readonly webhookTolerance?: number;

  constructor(options: StripeGatewayOptions) {
    this.publishableKey = options.publishableKey;
    this.webhookSecret = options.webhookSecret;
    this.webhookTolerance = options.webhookTolerance;
    this.stripe = new Stripe(options.secretKey, {
      // The SDK pins its own API version (2026-10-28.endive for stripe 23.1.0); the mapping
      // above reads that version's shapes (and the pre-2025 fields as fallbacks).
      telemetry: false,
      appInfo: { name: 'carnivo-server' },
      ...(options.host ? { host: options.host } : {}),
      ...(options.port ? { port: options.port } : {}),
      ...(options.protocol ? { protocol: options.protocol } : {}),
      ...(options.maxNetworkRetries !== undefined ? { maxNetworkRetries: options.maxNetworkRetries } : {}),
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
    });
  }

  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw translateError(error);
    }
  }

  async createCustomer(input: CustomerInput): Promise<{ customerId: string }> {
    const customer = await this.call(() =>
      this.stripe.customers.create(
        {
          email: input.email,
          name: input.username,
          metadata: { userId: String(input.userId), userDocumentId: input.userDocumentId },
        },
        { idempotencyKey: `carnivo-customer-${input.userDocumentId}` },
      ),
    );
    return { customerId: customer.id };
  }

  async createSubscription(customerId: string, priceId: string, attempt?: number): Promise<CreatedSubscription> {
    // One key per purchase attempt: a retry after a timeout or a lost answer gets the subscription
    // the first call created instead of a second one (Stripe keeps keys 24 hours).
    const idempotency = attempt === undefined ? {} : { idempotencyKey: `carnivo-subscription-${customerId}-${priceId}-${attempt}` };
    const subscription = await this.call(() =>
      this.stripe.subscriptions.create(
        {
          customer: customerId,
          items: [{ price: priceId }],
          // The first invoice stays open until the browser confirms its payment (confirmCardPayment).
          payment_behavior: 'default_incomplete',
          payment_settings: { save_default_payment_method: 'on_subscription', payment_method_types: ['card'] },
          // Since API 2025-03-31 the invoice no longer carries payment_intent; its
          // confirmation_secret holds the PaymentIntent's client_secret.
          expand: ['latest_invoice.confirmation_secret'],
        },
        idempotency,
      ),
    );
    const clientSecret = confirmationSecret(subscription);
    const mapped = mapStripeSubscription(subscription);
    return {
      subscriptionId: mapped.id,
      clientSecret,
      status: mapped.status,
      currentPeriodEnd: mapped.currentPeriodEnd,
      subscription: mapped,
    };
  }

  async retrieveSubscription(subscriptionId: string): Promise<GatewaySubscription> {
    return mapStripeSubscription(await this.call(() => this.stripe.subscriptions.retrieve(subscriptionId)));
  }

  async cancelAtPeriodEnd(subscriptionId: string): Promise<GatewaySubscription> {
    return mapStripeSubscription(await this.call(() => this.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true })));
  }

  async resume(subscriptionId: string): Promise<GatewaySubscription> {
    return mapStripeSubscription(await this.call(() => this.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: false })));
  }

  async listInvoices(customerId: string, offset: number, limit: number): Promise<InvoicePage> {
    // Stripe pages by cursor (newest first): walk from the newest until offset + limit + 1 are seen.
    const wanted = offset + limit + 1;
    const seen: Stripe.Invoice[] = [];
    let startingAfter: string | undefined;
    for (;;) {
      const page = await this.call(() =>
        this.stripe.invoices.list({
          customer: customerId,
          limit: Math.min(100, wanted - seen.length),
          ...(startingAfter ? { starting_after: startingAfter } : {}),
        }),
      );
      seen.push(...page.data);
      if (!page.has_more || page.data.length === 0 || seen.length >= wanted) break;
      startingAfter = page.data[page.data.length - 1].id;
    }
    return { invoices: seen.slice(offset, offset + limit).map(mapStripeInvoice), hasMore: seen.length > offset + limit };
  }

  async cardOnFile(customerId: string, subscriptionId: string | null): Promise<CardOnFile | null> {
    // The order Stripe charges in: the subscription's own default, then the customer's.
    if (subscriptionId) {
      const subscription = await this.call(() =>
        this.stripe.subscriptions.retrieve(subscriptionId, { expand: ['default_payment_method', 'default_source'] }),
      );
      const card = mapStripeCard(subscription.default_payment_method) ?? mapStripeCard(subscription.default_source);
      if (card) return card;
    }
    const customer = await this.call(() =>
      this.stripe.customers.retrieve(customerId, { expand: ['invoice_settings.default_payment_method', 'default_source'] }),
    );
    if (customer.deleted) return null;
    return mapStripeCard(customer.invoice_settings?.default_payment_method) ?? mapStripeCard(customer.default_source);
  }

  async createPortalSession(customerId: string, returnUrl: string): Promise<{ url: string }> {
    const session = await this.call(() => this.stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }));
    return { url: session.url };
  }

  async refundInvoice(customerId: string, invoiceId: string): Promise<GatewayRefund> {
    const invoice = await this.call(() => this.stripe.invoices.retrieve(invoiceId));
    const owner = typeof invoice.customer === 'string' ? invoice.customer : invoice.customer?.id;
    if (owner !== customerId) throw new GatewayError('not_found', `No such invoice: '${invoiceId}'`, 'resource_missing');
    // Since API 2025-03-31 an invoice's payments are InvoicePayments: a PaymentIntent, or a Charge for older ones.
    const payments = await this.call(() => this.stripe.invoicePayments.list({ invoice: invoiceId, status: 'paid', limit: 10 }));
    const payment = payments.data[0]?.payment;
    const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);
    const intent = idOf(payment?.payment_intent);
    const charge = idOf(payment?.charge);
    if (!intent && !charge) throw new GatewayError('invalid_request', `Invoice ${invoiceId} has no payment to refund.`);
    const target = intent ? { payment_intent: intent } : { charge: charge! };
    try {
      const refund = await this.call(() =>
        this.stripe.refunds.create(
          { ...target, reason: 'requested_by_customer', metadata: { carnivo_invoice: invoiceId, carnivo_customer: customerId } },
          { idempotencyKey: `carnivo-refund-${invoiceId}` },
        ),
      );
      return { refundId: refund.id, amount: refund.amount, currency: refund.currency };
    } catch (error) {
      // Refunded already, by a try whose idempotency key Stripe no longer keeps (24 hours): that refund is the answer.
      if (!(error instanceof GatewayError && error.code === 'charge_already_refunded')) throw error;
      const earlier = await this.call(() => this.stripe.refunds.list({ ...target, limit: 10 }));
      const refund = earlier.data.find((candidate) => candidate.status === 'succeeded' || candidate.status === 'pending');
      if (!refund) throw error;
      return { refundId: refund.id, amount: refund.amount, currency: refund.currency };
    }
  }

  async cancelNow(subscriptionId: string): Promise<GatewaySubscription> {
    return mapStripeSubscription(await this.call(() => this.stripe.subscriptions.cancel(subscriptionId)));
  }

  /**
   * The first invoice is voided before the subscription is canceled: Stripe refuses to void a paid
   * invoice, so a payment confirmed in the browser at that very moment is never canceled after it
   * was taken (the void fails, the re-read subscription shows it paid).
   */
  async endUnpaid(subscriptionId: string): Promise<GatewaySubscription> {
    const subscription = await this.call(() => this.stripe.subscriptions.retrieve(subscriptionId, { expand: ['latest_invoice'] }));
    if (subscription.status !== 'incomplete') return mapStripeSubscription(subscription);
    const invoice = subscription.latest_invoice;
    if (invoice && typeof invoice === 'object' && invoice.id && invoice.status === 'open') {
      try {
        await this.call(() => this.stripe.invoices.voidInvoice(invoice.id!));
      } catch (error) {
        const now = mapStripeSubscription(await this.call(() => this.stripe.subscriptions.retrieve(subscriptionId)));
        if (now.status !== 'incomplete') return now;
        throw error;
      }
    }
    return this.cancelNow(subscriptionId);
  }

  async paymentSecret(subscriptionId: string): Promise<string | null> {
    const subscription = await this.call(() =>
      this.stripe.subscriptions.retrieve(subscriptionId, { expand: ['latest_invoice.confirmation_secret'] }),
    );
    const invoice = subscription.latest_invoice;
    const open = invoice && typeof invoice === 'object' ? invoice.status === 'open' : false;
    return subscription.status === 'incomplete' && open ? confirmationSecret(subscription) : null;
  }

  async deleteCustomer(customerId: string): Promise<void> {
    try {
      // Stripe deletes the customer's saved cards and ends its subscriptions with it.
      await this.call(() => this.stripe.customers.del(customerId));
    } catch (error) {
      // Already deleted (or never created in this account): nothing left to remove.
      if (error instanceof GatewayError && error.kind === 'not_found') return;
      throw error;
    }
  }

  constructWebhookEvent(rawBody: string | Buffer, signatureHeader: string | undefined): WebhookEvent {
    if (!signatureHeader) {
      throw new GatewayError('signature', 'Missing Stripe-Signature header');
    }
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signatureHeader, this.webhookSecret, this.webhookTolerance);
    } catch (error) {
      throw new GatewayError('signature', (error as Error).message || 'Invalid signature', undefined, error);
    }
    const object = event.data?.object as { object?: string } | undefined;
    let subscription: GatewaySubscription | null = null;
    let subscriptionId: string | null = null;
    if (object?.object === 'subscription') {
      subscription = mapStripeSubscription(object as unknown as Stripe.Subscription);
      subscriptionId = subscription.id;
    } else if (object?.object === 'invoice') {
      subscriptionId = invoiceSubscriptionId(object as unknown as Stripe.Invoice);
    }
    return { id: event.id, type: event.type, created: event.created, subscription, subscriptionId };
  }
}
