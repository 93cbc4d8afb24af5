import crypto from 'node:crypto';
import { GatewayError, addInterval } from './gateway';
import type {
  CreatedSubscription,
  CustomerInput,
  GatewayRefund,
  GatewaySubscription,
  InvoicePage,
  PaymentGateway,
  WebhookEvent,
} from './gateway';
import { ENDED_STATUSES, INCOMPLETE_LIFETIME_MS, type PlanInterval, type SubscriptionStatus } from '../contract/subscriptions';
import type { CardBrand, CardOnFile, Invoice } from '../contract/billing';
import {
  SANDBOX_CARDS,
  SANDBOX_PAYING_CARDS,
  sandboxCardBody,
  sandboxCardMessages,
  type SandboxCard,
  type SandboxCardRefusal,
} from '../contract/sandboxCard';
import { parseBody } from '../contract/schema';

/** Key-value persistence of the sandbox (Strapi's core store in the app; a Map in unit tests). */
export interface SandboxStorage {
  get<T>(key: string): Promise<T | null>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface SandboxGatewayOptions {
  storage: SandboxStorage;
  /** The billing interval (and amount in cents) of a price id (the app looks up its subscription plans); null if unknown. */
  lookupPrice(priceId: string): Promise<{ interval: PlanInterval; amount?: number; currency?: string } | null>;
  /**
   * The address of the receipt page of an invoice id; by default the app's GET /api/payments/sandbox/receipts/:id,
   * relative: this server serves it on whatever origin the member reached the site by (not PUBLIC_URL's).
   */
  receiptUrl?: (invoiceId: string) => string;
  now?: () => Date;
}

interface SandboxCustomer {
  id: string;
  email: string;
  userId: number;
  /** Its subscriptions, so that deleting the customer ends them as Stripe does (absent on older records). */
  subscriptionIds?: string[];
  /** The test card on file (set by a payment or a card update); `brand` is absent on older records. */
  card?: StoredCard;
}

interface SandboxSubscription {
  id: string;
  customerId: string;
  priceId: string;
  interval: PlanInterval;
  status: SubscriptionStatus;
  createdAt: string;
  startDate: string;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  paymentIntentId: string;
  /** What each period costs, in cents (looked up again on records older than these fields). */
  amount?: number;
  currency?: string;
  /** Secret of the HMAC in its invoices' ids, so that a receipt address cannot be guessed. */
  receiptKey?: string;
  /** Refunds made, by invoice id: a refund asked again answers the same one. */
  refunds?: Record<string, string>;
}

/** A sandbox invoice with the subscription it belongs to (for the receipt page). */
export interface SandboxReceipt {
  invoice: Invoice;
  priceId: string;
  interval: PlanInterval;
}

/** Invoice ids: in_sandbox_<subscription hex>_<period number>_<HMAC of both under the subscription's receiptKey>. */
const INVOICE_ID = /^in_sandbox_([0-9a-f]{24})_(\d{1,6})_([0-9a-f]{32})$/;

interface SandboxPaymentIntent {
  id: string;
  clientSecret: string;
  subscriptionId: string;
  status: 'requires_payment_method' | 'succeeded' | 'canceled';
  declines: number;
}

export interface CardInput {
  clientSecret?: unknown;
  cardNumber?: unknown;
  expiry?: unknown;
  cvc?: unknown;
}

/** A card refused by the sandbox: status 400 (invalid input) or 402 (declined). */
export class SandboxCardError extends Error {
  constructor(
    readonly status: 400 | 402,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CardError';
  }
}

const randomId = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString('hex')}`;

interface StoredCard {
  brand?: CardBrand;
  last4: string;
  /** MM/YY as entered (validated). */
  expiry: string;
}

const storedCard = ({ cardNumber, expiry }: SandboxCard): StoredCard => ({
  brand: SANDBOX_PAYING_CARDS.get(cardNumber),
  last4: cardNumber.slice(-4),
  expiry,
});

/** A stored card as the contract shows it; older records have no brand, which their test number's last 4 digits tell. */
function cardView(card: StoredCard): CardOnFile {
  const [month, year] = card.expiry.split('/').map(Number);
  const brand = card.brand ?? [...SANDBOX_PAYING_CARDS].find(([number]) => number.endsWith(card.last4))?.[1] ?? 'unknown';
  return { brand, last4: card.last4, expMonth: month, expYear: 2000 + year };
}

/**
 * Checks the card fields by the contract's rules (as of `now`); answers them normalised (the number without
 * spaces or dashes). Throws SandboxCardError(400) with the broken rule's message and its code.
 */
export function validateSandboxCard(input: CardInput, now: Date): SandboxCard {
  const parsed = parseBody(sandboxCardBody(now), input);
  if (parsed.ok) return parsed.value;
  // Each message of the schema is one of sandboxCardMessages, whose key is the code Stripe answers with.
  const code = (Object.keys(sandboxCardMessages) as SandboxCardRefusal[]).find((key) => sandboxCardMessages[key] === parsed.message);
  throw new SandboxCardError(400, code ?? 'card_error', parsed.message);
}

/**
 * In-process stand-in for Stripe. Deterministic: Stripe's test numbers pay (SANDBOX_PAYING_CARDS,
 * 4242 4242 4242 4242 among them), 4000 0000 0000 0002 is declined, anything else is an incorrect number. Its state (customers, subscriptions, payment
 * intents) persists through the storage, so it survives restarts. Renewals are simulated lazily:
 * reading an active subscription past its period end renews it (or ends it when it was set to
 * cancel at period end); an unpaid incomplete subscription expires after 23 hours, as on Stripe.
 *
 * Invoices are not stored apart: each paid period of a subscription (the first payment and every
 * renewal, both persisted on the subscription) is one paid invoice, derived on read. So every
 * instance reading the same storage lists the same invoices with the same ids, and nothing can be
 * half-written or written twice by instances renewing the same subscription at once.
 */
export class SandboxGateway implements PaymentGateway {
  readonly mode = 'sandbox' as const;
  readonly publishableKey = null;
  private readonly storage: SandboxStorage;
  private readonly lookupPrice: SandboxGatewayOptions['lookupPrice'];
  readonly now: () => Date;
  private readonly receiptUrl: (invoiceId: string) => string;

  constructor(options: SandboxGatewayOptions) {
    this.storage = options.storage;
    this.lookupPrice = options.lookupPrice;
    this.now = options.now ?? (() => new Date());
    this.receiptUrl = options.receiptUrl ?? ((id) => `/api/payments/sandbox/receipts/${id}`);
  }

  private async load(subscriptionId: string): Promise<SandboxSubscription> {
    const stored = typeof subscriptionId === 'string' ? await this.storage.get<SandboxSubscription>(`sub:${subscriptionId}`) : null;
    if (!stored) {
      throw new GatewayError('not_found', `No such subscription: '${subscriptionId}'`, 'resource_missing');
    }
    return this.settle(stored);
  }

  /** Applies what time did: expiry of unpaid subscriptions, renewals, cancellation at period end. */
  private async settle(sub: SandboxSubscription): Promise<SandboxSubscription> {
    const now = this.now();
    let changed = false;
    if (sub.status === 'incomplete' && now.getTime() - Date.parse(sub.createdAt) > INCOMPLETE_LIFETIME_MS) {
      sub.status = 'incomplete_expired';
      await this.cancelPaymentIntent(sub.paymentIntentId);
      changed = true;
    }
    if (sub.status === 'active' && sub.currentPeriodEnd && Date.parse(sub.currentPeriodEnd) <= now.getTime()) {
      if (sub.cancelAtPeriodEnd) {
        sub.status = 'canceled';
      } else {
        // Renewed with the saved test card.
        let start = new Date(sub.currentPeriodEnd);
        let end = addInterval(start, sub.interval);
        while (end.getTime() <= now.getTime()) {
          start = end;
          end = addInterval(start, sub.interval);
        }
        sub.currentPeriodStart = start.toISOString();
        sub.currentPeriodEnd = end.toISOString();
      }
      changed = true;
    }
    if (changed) await this.storage.set(`sub:${sub.id}`, sub);
    return sub;
  }

  private async cancelPaymentIntent(paymentIntentId: string): Promise<void> {
    const intent = await this.storage.get<SandboxPaymentIntent>(`pi:${paymentIntentId}`);
    if (intent && intent.status === 'requires_payment_method') {
      await this.storage.set(`pi:${paymentIntentId}`, { ...intent, status: 'canceled' });
    }
  }

  private view(sub: SandboxSubscription): GatewaySubscription {
    return {
      id: sub.id,
      customerId: sub.customerId,
      status: sub.status,
      priceId: sub.priceId,
      startDate: new Date(sub.startDate),
      currentPeriodEnd: sub.currentPeriodEnd ? new Date(sub.currentPeriodEnd) : null,
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
      cancelAt: sub.cancelAtPeriodEnd && sub.currentPeriodEnd ? new Date(sub.currentPeriodEnd) : null,
    };
  }

  async createCustomer(input: CustomerInput): Promise<{ customerId: string }> {
    const customerId = randomId('cus_sandbox');
    const customer: SandboxCustomer = { id: customerId, email: input.email, userId: input.userId, subscriptionIds: [] };
    await this.storage.set(`cus:${customerId}`, customer);
    return { customerId };
  }

  async deleteCustomer(customerId: string): Promise<void> {
    const customer = typeof customerId === 'string' ? await this.storage.get<SandboxCustomer>(`cus:${customerId}`) : null;
    if (!customer) return;
    // As on Stripe: the customer's subscriptions end with it. They stay readable; they hold no e-mail.
    for (const subscriptionId of customer.subscriptionIds ?? []) {
      const sub = await this.storage.get<SandboxSubscription>(`sub:${subscriptionId}`);
      if (sub) await this.cancelNow(sub.id);
    }
    await this.storage.delete(`cus:${customerId}`);
  }

  async createSubscription(customerId: string, priceId: string): Promise<CreatedSubscription> {
    const price = await this.lookupPrice(priceId);
    if (!price) {
      throw new GatewayError('invalid_request', `No such price: '${priceId}'`, 'resource_missing');
    }
    const customer = typeof customerId === 'string' ? await this.storage.get<SandboxCustomer>(`cus:${customerId}`) : null;
    if (!customer) {
      throw new GatewayError('not_found', `No such customer: '${customerId}'`, 'resource_missing');
    }
    const now = this.now().toISOString();
    const id = randomId('sub_sandbox');
    const paymentIntentId = randomId('pi_sandbox');
    const intent: SandboxPaymentIntent = {
      id: paymentIntentId,
      clientSecret: `${paymentIntentId}_secret_${crypto.randomBytes(16).toString('hex')}`,
      subscriptionId: id,
      status: 'requires_payment_method',
      declines: 0,
    };
    const sub: SandboxSubscription = {
      id,
      customerId,
      priceId,
      amount: price.amount,
      currency: price.currency,
      receiptKey: crypto.randomBytes(16).toString('hex'),
      interval: price.interval,
      status: 'incomplete',
      createdAt: now,
      startDate: now,
      currentPeriodStart: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      paymentIntentId,
    };
    await this.storage.set(`pi:${paymentIntentId}`, intent);
    await this.storage.set(`sub:${id}`, sub);
    await this.storage.set(`cus:${customerId}`, { ...customer, subscriptionIds: [...(customer.subscriptionIds ?? []), id] });
    return {
      subscriptionId: id,
      clientSecret: intent.clientSecret,
      status: sub.status,
      currentPeriodEnd: null,
      subscription: this.view(sub),
    };
  }

  async retrieveSubscription(subscriptionId: string): Promise<GatewaySubscription> {
    return this.view(await this.load(subscriptionId));
  }

  async cancelAtPeriodEnd(subscriptionId: string): Promise<GatewaySubscription> {
    return this.setCancelAtPeriodEnd(subscriptionId, true, 'A canceled subscription can only update its cancellation_details.');
  }

  async resume(subscriptionId: string): Promise<GatewaySubscription> {
    return this.setCancelAtPeriodEnd(subscriptionId, false, 'A canceled subscription cannot be resumed.');
  }

  /** Sets or clears cancel at period end; an ended subscription refuses with Stripe's message. */
  private async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean, endedRefusal: string): Promise<GatewaySubscription> {
    const sub = await this.load(subscriptionId);
    if (ENDED_STATUSES.includes(sub.status)) throw new GatewayError('invalid_request', endedRefusal);
    sub.cancelAtPeriodEnd = cancel;
    await this.storage.set(`sub:${sub.id}`, sub);
    return this.view(sub);
  }

  /** The paid periods of a subscription as invoices, oldest first (settled first: renewals due are made). */
  private async invoicesOf(sub: SandboxSubscription): Promise<Invoice[]> {
    // Only a paid subscription has periods: the payment set startDate and currentPeriodStart.
    if (!sub.currentPeriodStart) return [];
    if (!sub.receiptKey) {
      sub.receiptKey = crypto.randomBytes(16).toString('hex');
      await this.storage.set(`sub:${sub.id}`, sub);
    }
    let amount = sub.amount;
    let currency = sub.currency;
    if (amount === undefined) {
      const price = await this.lookupPrice(sub.priceId);
      amount = price?.amount ?? 0;
      currency = price?.currency;
    }
    const hex = sub.id.slice('sub_sandbox_'.length);
    const last = Date.parse(sub.currentPeriodStart);
    const invoices: Invoice[] = [];
    // The same chain of periods as the renewals in settle(): each starts where the previous ended.
    for (let start = new Date(sub.startDate), n = 0; start.getTime() <= last; start = addInterval(start, sub.interval), n += 1) {
      const mac = crypto.createHmac('sha256', sub.receiptKey).update(`${hex}_${n}`).digest('hex').slice(0, 32);
      const id = `in_sandbox_${hex}_${n}_${mac}`;
      invoices.push({
        id,
        date: start.toISOString(),
        amount,
        currency: currency ?? 'usd',
        status: 'paid',
        periodStart: start.toISOString(),
        periodEnd: addInterval(start, sub.interval).toISOString(),
        receiptUrl: this.receiptUrl(id),
        pdfUrl: null,
        refunded: Boolean(sub.refunds?.[id]),
        // Each period is paid as it starts: the first payment, then each renewal.
        paidAt: start.toISOString(),
        subscriptionId: sub.id,
      });
    }
    return invoices;
  }

  async listInvoices(customerId: string, offset: number, limit: number): Promise<InvoicePage> {
    const customer = typeof customerId === 'string' ? await this.storage.get<SandboxCustomer>(`cus:${customerId}`) : null;
    // A deleted customer's invoices are gone with it (account deletion).
    if (!customer) return { invoices: [], hasMore: false };
    const all: Invoice[] = [];
    for (const subscriptionId of customer.subscriptionIds ?? []) {
      const stored = await this.storage.get<SandboxSubscription>(`sub:${subscriptionId}`);
      if (stored) all.push(...(await this.invoicesOf(await this.settle(stored))));
    }
    all.sort((a, b) => Date.parse(b.date) - Date.parse(a.date) || b.id.localeCompare(a.id));
    return { invoices: all.slice(offset, offset + limit), hasMore: all.length > offset + limit };
  }

  /** The invoice behind a receipt address, or null (unknown, forged, or its customer deleted). */
  async receipt(invoiceId: unknown): Promise<SandboxReceipt | null> {
    const found = await this.findInvoice(invoiceId);
    return found && { invoice: found.invoice, priceId: found.sub.priceId, interval: found.sub.interval };
  }

  /** An invoice by its id, with its subscription; null when unknown, forged, or its customer deleted. */
  private async findInvoice(invoiceId: unknown): Promise<{ invoice: Invoice; sub: SandboxSubscription } | null> {
    const match = typeof invoiceId === 'string' ? INVOICE_ID.exec(invoiceId) : null;
    if (!match) return null;
    const stored = await this.storage.get<SandboxSubscription>(`sub:sub_sandbox_${match[1]}`);
    if (!stored?.receiptKey || !(await this.storage.get<SandboxCustomer>(`cus:${stored.customerId}`))) return null;
    const sub = await this.settle(stored);
    const invoice = (await this.invoicesOf(sub))[Number(match[2])];
    if (!invoice || invoice.id.length !== match[0].length) return null;
    if (!crypto.timingSafeEqual(Buffer.from(invoice.id), Buffer.from(match[0]))) return null;
    return { invoice, sub };
  }

  async refundInvoice(customerId: string, invoiceId: string): Promise<GatewayRefund> {
    const found = await this.findInvoice(invoiceId);
    if (!found || found.sub.customerId !== customerId) {
      throw new GatewayError('not_found', `No such invoice: '${String(invoiceId)}'`, 'resource_missing');
    }
    const { invoice, sub } = found;
    const refunds = sub.refunds ?? {};
    const refundId = refunds[invoice.id] ?? randomId('re_sandbox');
    if (!refunds[invoice.id]) await this.storage.set(`sub:${sub.id}`, { ...sub, refunds: { ...refunds, [invoice.id]: refundId } });
    return { refundId, amount: invoice.amount, currency: invoice.currency };
  }

  async createPortalSession(): Promise<{ url: string }> {
    throw new GatewayError('invalid_request', 'The sandbox has no billing portal');
  }

  /** Replaces the customer's card on file (the in-app card update of sandbox mode). */
  async updateCard(customerId: string, input: CardInput): Promise<{ last4: string }> {
    const customer = typeof customerId === 'string' ? await this.storage.get<SandboxCustomer>(`cus:${customerId}`) : null;
    if (!customer) throw new GatewayError('not_found', `No such customer: '${customerId}'`, 'resource_missing');
    const given = validateSandboxCard(input, this.now());
    // As on Stripe, the declined test card cannot be saved either.
    if (given.cardNumber === SANDBOX_CARDS.declined) throw new SandboxCardError(402, 'card_declined', 'Your card was declined.');
    const card = storedCard(given);
    await this.storage.set(`cus:${customerId}`, { ...customer, card });
    return { last4: card.last4 };
  }

  /** The stored test card: set by the first payment, replaced by a card update (a declined one changes nothing). */
  async cardOnFile(customerId: string): Promise<CardOnFile | null> {
    const customer = typeof customerId === 'string' ? await this.storage.get<SandboxCustomer>(`cus:${customerId}`) : null;
    return customer?.card ? cardView(customer.card) : null;
  }

  async cancelNow(subscriptionId: string): Promise<GatewaySubscription> {
    const sub = await this.load(subscriptionId);
    if (!ENDED_STATUSES.includes(sub.status)) {
      sub.status = sub.status === 'incomplete' ? 'incomplete_expired' : 'canceled';
      await this.cancelPaymentIntent(sub.paymentIntentId);
      await this.storage.set(`sub:${sub.id}`, sub);
    }
    return this.view(sub);
  }

  /** Payments are confirmed under the member's lock too, so nothing can pay between the check and the end. */
  async endUnpaid(subscriptionId: string): Promise<GatewaySubscription> {
    const sub = await this.load(subscriptionId);
    return sub.status === 'incomplete' ? this.cancelNow(sub.id) : this.view(sub);
  }

  async paymentSecret(subscriptionId: string): Promise<string | null> {
    const sub = await this.load(subscriptionId);
    if (sub.status !== 'incomplete') return null;
    const intent = await this.storage.get<SandboxPaymentIntent>(`pi:${sub.paymentIntentId}`);
    return intent?.status === 'requires_payment_method' ? intent.clientSecret : null;
  }

  /** The subscription a client secret pays for (null for an unknown secret); the secret is checked by confirmPayment. */
  async subscriptionOfSecret(clientSecret: unknown): Promise<string | null> {
    const match = typeof clientSecret === 'string' ? /^(pi_sandbox_[0-9a-f]+)_secret_[0-9a-f]+$/.exec(clientSecret) : null;
    const intent = match ? await this.storage.get<SandboxPaymentIntent>(`pi:${match[1]}`) : null;
    return intent?.subscriptionId ?? null;
  }

  constructWebhookEvent(): WebhookEvent {
    throw new GatewayError('signature', 'Webhooks are not used in sandbox mode');
  }

  /**
   * The browser-side confirmCardPayment of the sandbox. A declined card charges nothing and leaves
   * the subscription incomplete; a paid one makes it active for one billing period from now.
   */
  async confirmPayment(input: CardInput): Promise<{ paymentIntent: { id: string; status: 'succeeded' }; subscriptionId: string }> {
    const secret = typeof input.clientSecret === 'string' ? input.clientSecret : '';
    const match = /^(pi_sandbox_[0-9a-f]+)_secret_[0-9a-f]+$/.exec(secret);
    const intent = match ? await this.storage.get<SandboxPaymentIntent>(`pi:${match[1]}`) : null;
    if (
      !intent ||
      intent.clientSecret.length !== secret.length ||
      !crypto.timingSafeEqual(Buffer.from(intent.clientSecret), Buffer.from(secret))
    ) {
      throw new SandboxCardError(400, 'payment_intent_invalid', 'This payment is invalid or has expired. Please start again.');
    }
    const sub = await this.load(intent.subscriptionId);
    const current = (await this.storage.get<SandboxPaymentIntent>(`pi:${intent.id}`))!;
    if (current.status === 'succeeded') {
      return { paymentIntent: { id: current.id, status: 'succeeded' }, subscriptionId: sub.id };
    }
    if (current.status === 'canceled' || sub.status !== 'incomplete') {
      throw new SandboxCardError(400, 'payment_intent_unexpected_state', 'This payment was canceled. Please start again.');
    }

    const given = validateSandboxCard(input, this.now());
    if (given.cardNumber === SANDBOX_CARDS.declined) {
      await this.storage.set(`pi:${current.id}`, { ...current, declines: current.declines + 1 });
      throw new SandboxCardError(402, 'card_declined', 'Your card was declined.');
    }

    // The paying card becomes the card on file (renewals use it).
    const customer = await this.storage.get<SandboxCustomer>(`cus:${sub.customerId}`);
    if (customer) await this.storage.set(`cus:${customer.id}`, { ...customer, card: storedCard(given) });

    const now = this.now();
    sub.status = 'active';
    sub.startDate = now.toISOString();
    sub.currentPeriodStart = now.toISOString();
    sub.currentPeriodEnd = addInterval(now, sub.interval).toISOString();
    await this.storage.set(`pi:${current.id}`, { ...current, status: 'succeeded' });
    await this.storage.set(`sub:${sub.id}`, sub);
    return { paymentIntent: { id: current.id, status: 'succeeded' }, subscriptionId: sub.id };
  }
}
