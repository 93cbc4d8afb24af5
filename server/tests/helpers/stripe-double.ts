import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the Stripe SDK made to the double. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Form parameters (body for POST, query string for GET/DELETE), flat as sent: items[0][price]. */
  params: Record<string, string>;
  headers: http.IncomingHttpHeaders;
}

export interface DoubleSubscription {
  id: string;
  customer: string;
  status: string;
  priceId: string;
  start_date: number;
  current_period_start: number;
  current_period_end: number;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  invoiceId: string;
  clientSecret: string;
  /** The first invoice was voided (POST /v1/invoices/:id/void): it can no longer be paid. */
  invoiceVoided?: boolean;
  /** Id of the subscription's own default payment method (Stripe charges it before the customer's). */
  default_payment_method?: string | null;
}

/** Test payment methods the double knows, by id: the card of each, as Stripe's pm_card_* test ids. */
export const TEST_PAYMENT_METHODS: Record<string, { brand: string; last4: string; exp_month: number; exp_year: number; declined?: true }> =
  {
    pm_card_visa: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 },
    pm_card_mastercard: { brand: 'mastercard', last4: '4444', exp_month: 3, exp_year: 2031 },
    pm_card_amex: { brand: 'amex', last4: '8431', exp_month: 7, exp_year: 2032 },
    pm_card_chargeDeclined: { brand: 'visa', last4: '0002', exp_month: 12, exp_year: 2034, declined: true },
  };

type Failure = { status: number; error: Record<string, unknown>; times: number; method?: string; pathPrefix?: string };
/** How a request whose work was done is answered badly: late, with a 500, or not at all (connection reset). */
export type AfterWorkFault = { kind: 'slow'; ms: number } | { kind: 'error500' } | { kind: 'reset' };
type PendingFault = AfterWorkFault & { times: number; method: string; pathPrefix: string };

/**
 * A local HTTP double of the Stripe API endpoints the gateway uses: customers create / retrieve /
 * update / delete, subscriptions create / retrieve / update / cancel, payment methods attach (the
 * Customer Portal's card update, which tests make through the SDK: a declined card is refused and
 * changes nothing). Answers in the shapes of the SDK's pinned API
 * version (period on the items, invoice.confirmation_secret). Tests read `requests`, `customers`
 * and `deletedCustomers`, change `subscriptions` directly, and can make the next requests fail
 * with `failNext` (all of them, or only those to one endpoint).
 */
export async function startStripeDouble() {
  const requests: RecordedRequest[] = [];
  const subscriptions = new Map<string, DoubleSubscription>();
  const customers = new Map<string, Record<string, unknown>>();
  /** Payment methods attached to a customer (POST /v1/payment_methods/:id/attach): id -> customer. */
  const attachedTo = new Map<string, string>();
  /** Ids of the customers deleted through DELETE /v1/customers/:id, in order. */
  const deletedCustomers: string[] = [];
  /** Invoices (Stripe JSON) the tests put here; GET /v1/invoices lists a customer's, newest first. */
  const invoices: Record<string, unknown>[] = [];
  /** Refunds made (POST /v1/refunds), each once per Idempotency-Key. */
  const refunds: Record<string, unknown>[] = [];
  /** Billing portal sessions made (POST /v1/billing_portal/sessions). */
  const portalSessions: { customer: string; return_url: string; url: string }[] = [];
  let counter = 0;
  let nextFailure: Failure | null = null;
  let afterWork: PendingFault | null = null;
  /** Answers of POST requests by Idempotency-Key, replayed like Stripe does (same key: same answer, no new work). */
  const idempotent = new Map<string, { status: number; body: unknown }>();
  /** Timers of answers held back by a 'slow' fault, cleared at stop. */
  const held = new Set<NodeJS.Timeout>();
  /** Runs before each request is answered: a test makes something happen at that exact moment (a payment in the browser). */
  let beforeRoute: ((method: string, path: string) => void) | null = null;
  const now = () => Math.floor(Date.now() / 1000);

  const paymentMethodJson = (id: string) => {
    const card = TEST_PAYMENT_METHODS[id];
    if (!card) return id;
    const { declined: _declined, ...fields } = card;
    return {
      id,
      object: 'payment_method',
      type: 'card',
      customer: attachedTo.get(id) ?? null,
      card: { ...fields, funding: 'credit', country: 'US' },
    };
  };
  /** A payment method id, expanded to its object when asked for. */
  const paymentMethodField = (id: string | null | undefined, expanded: boolean) => (id ? (expanded ? paymentMethodJson(id) : id) : null);
  const customerJson = (customer: Record<string, unknown>, expand: string[]) => {
    const settings = (customer.invoice_settings ?? {}) as { default_payment_method?: string | null };
    return {
      ...customer,
      default_source: null,
      invoice_settings: {
        ...settings,
        default_payment_method: paymentMethodField(
          settings.default_payment_method,
          expand.includes('invoice_settings.default_payment_method'),
        ),
      },
    };
  };

  const subscriptionJson = (sub: DoubleSubscription, expand: string[]) => ({
    id: sub.id,
    object: 'subscription',
    customer: sub.customer,
    default_payment_method: paymentMethodField(sub.default_payment_method, expand.includes('default_payment_method')),
    default_source: null,
    status: sub.status,
    created: sub.start_date,
    start_date: sub.start_date,
    cancel_at_period_end: sub.cancel_at_period_end,
    cancel_at: sub.cancel_at,
    canceled_at: sub.canceled_at,
    livemode: false,
    items: {
      object: 'list',
      has_more: false,
      data: [
        {
          id: `si_${sub.id}`,
          object: 'subscription_item',
          price: { id: sub.priceId, object: 'price' },
          quantity: 1,
          current_period_start: sub.current_period_start,
          current_period_end: sub.current_period_end,
        },
      ],
    },
    latest_invoice: expand.some((e) => e.startsWith('latest_invoice'))
      ? {
          id: sub.invoiceId,
          object: 'invoice',
          status: sub.invoiceVoided ? 'void' : sub.status === 'incomplete' ? 'open' : 'paid',
          confirmation_secret: expand.includes('latest_invoice.confirmation_secret')
            ? { client_secret: sub.clientSecret, type: 'payment_intent' }
            : undefined,
        }
      : sub.invoiceId,
  });

  const notFound = (kind: string, id: string) => ({
    status: 404,
    error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'`, param: 'id' },
  });

  function route(method: string, path: string, params: Record<string, string>): { status: number; body: unknown } {
    const expand = Object.entries(params)
      .filter(([key]) => key.startsWith('expand['))
      .map(([, value]) => value);
    if (method === 'POST' && path === '/v1/customers') {
      counter += 1;
      const customer = {
        id: `cus_test_${counter}`,
        object: 'customer',
        email: params.email,
        name: params.name,
        invoice_settings: { default_payment_method: null },
      };
      customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    if (method === 'POST' && path === '/v1/subscriptions') {
      if (!customers.has(params.customer)) return { status: 404, body: { error: notFound('customer', params.customer).error } };
      const priceId = params['items[0][price]'];
      if (priceId === 'price_missing') return { status: 400, body: { error: notFound('price', priceId).error } };
      counter += 1;
      const start = now();
      const sub: DoubleSubscription = {
        id: `sub_test_${counter}`,
        customer: params.customer,
        status: 'incomplete',
        priceId,
        start_date: start,
        current_period_start: start,
        current_period_end: start + 30 * 86400,
        cancel_at_period_end: false,
        cancel_at: null,
        canceled_at: null,
        invoiceId: `in_test_${counter}`,
        clientSecret: `pi_test_${counter}_secret_abc`,
      };
      subscriptions.set(sub.id, sub);
      return { status: 200, body: subscriptionJson(sub, expand) };
    }
    if (method === 'GET' && path === '/v1/invoices') {
      const own = invoices.filter((invoice) => invoice.customer === params.customer).sort((a, b) => Number(b.created) - Number(a.created));
      const after = params.starting_after ? own.findIndex((invoice) => invoice.id === params.starting_after) + 1 : 0;
      const limit = Number(params.limit ?? 10);
      const data = own.slice(after, after + limit);
      return { status: 200, body: { object: 'list', url: '/v1/invoices', has_more: after + limit < own.length, data } };
    }
    const invoiceMatch = /^\/v1\/invoices\/([^/]+)$/.exec(path);
    if (invoiceMatch && method === 'GET') {
      const invoice = invoices.find((candidate) => candidate.id === invoiceMatch[1]);
      return invoice ? { status: 200, body: invoice } : { status: 404, body: { error: notFound('invoice', invoiceMatch[1]).error } };
    }
    // A paid invoice's payment is one PaymentIntent, named after the invoice: pi_for_<invoice id>.
    if (method === 'GET' && path === '/v1/invoice_payments') {
      const invoice = invoices.find((candidate) => candidate.id === params.invoice);
      const paid = invoice?.status === 'paid' && (!params.status || params.status === 'paid');
      const data = paid
        ? [
            {
              id: `inpay_${String(invoice.id)}`,
              object: 'invoice_payment',
              invoice: invoice.id,
              status: 'paid',
              amount_paid: invoice.amount_paid,
              currency: invoice.currency,
              payment: { type: 'payment_intent', payment_intent: `pi_for_${String(invoice.id)}` },
            },
          ]
        : [];
      return { status: 200, body: { object: 'list', url: '/v1/invoice_payments', has_more: false, data } };
    }
    if (method === 'GET' && path === '/v1/refunds') {
      const data = refunds.filter((refund) => !params.payment_intent || refund.payment_intent === params.payment_intent);
      return { status: 200, body: { object: 'list', url: '/v1/refunds', has_more: false, data } };
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const invoice = invoices.find((candidate) => `pi_for_${String(candidate.id)}` === params.payment_intent);
      if (!invoice) return { status: 404, body: { error: notFound('payment_intent', params.payment_intent).error } };
      // As Stripe: a payment refunded in full cannot be refunded again (a new idempotency key is a new request).
      if (refunds.some((refund) => refund.payment_intent === params.payment_intent)) {
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'charge_already_refunded',
              message: `Charge for ${params.payment_intent} has already been refunded.`,
            },
          },
        };
      }
      counter += 1;
      const refund = {
        id: `re_test_${counter}`,
        object: 'refund',
        payment_intent: params.payment_intent,
        amount: Number(invoice.amount_paid),
        currency: invoice.currency,
        status: 'succeeded',
        reason: params.reason,
        metadata: { carnivo_invoice: params['metadata[carnivo_invoice]'], carnivo_customer: params['metadata[carnivo_customer]'] },
      };
      refunds.push(refund);
      return { status: 200, body: refund };
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!customers.has(params.customer)) return { status: 404, body: { error: notFound('customer', params.customer).error } };
      counter += 1;
      const session = { customer: params.customer, return_url: params.return_url, url: `https://billing.stripe.test/p/session_${counter}` };
      portalSessions.push(session);
      return { status: 200, body: { id: `bps_${counter}`, object: 'billing_portal.session', ...session } };
    }
    const voidMatch = /^\/v1\/invoices\/([^/]+)\/void$/.exec(path);
    if (voidMatch && method === 'POST') {
      const id = decodeURIComponent(voidMatch[1]);
      const sub = [...subscriptions.values()].find((candidate) => candidate.invoiceId === id);
      if (!sub) return { status: 404, body: { error: notFound('invoice', id).error } };
      // As on Stripe: only an open invoice can be voided (a paid one cannot).
      if (sub.status !== 'incomplete' || sub.invoiceVoided) {
        return { status: 400, body: { error: { type: 'invalid_request_error', message: 'You can only void open invoices.' } } };
      }
      sub.invoiceVoided = true;
      return { status: 200, body: { id, object: 'invoice', status: 'void', customer: sub.customer } };
    }
    const attachMatch = /^\/v1\/payment_methods\/([^/]+)\/attach$/.exec(path);
    if (attachMatch && method === 'POST') {
      const id = decodeURIComponent(attachMatch[1]);
      if (!TEST_PAYMENT_METHODS[id]) return { status: 404, body: { error: notFound('payment_method', id).error } };
      if (!customers.has(params.customer)) return { status: 404, body: { error: notFound('customer', params.customer).error } };
      // As on Stripe: a card the issuer declines cannot be saved.
      if (TEST_PAYMENT_METHODS[id].declined) {
        return {
          status: 402,
          body: {
            error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
          },
        };
      }
      attachedTo.set(id, params.customer);
      return { status: 200, body: paymentMethodJson(id) };
    }
    const customerMatch = /^\/v1\/customers\/([^/]+)$/.exec(path);
    if (customerMatch && method === 'GET') {
      const id = decodeURIComponent(customerMatch[1]);
      const customer = customers.get(id);
      if (!customer) {
        // As on Stripe: a deleted customer is still retrievable, marked deleted.
        return deletedCustomers.includes(id)
          ? { status: 200, body: { id, object: 'customer', deleted: true } }
          : { status: 404, body: { error: notFound('customer', id).error } };
      }
      return { status: 200, body: customerJson(customer, expand) };
    }
    if (customerMatch && method === 'POST') {
      const id = decodeURIComponent(customerMatch[1]);
      const customer = customers.get(id);
      if (!customer) return { status: 404, body: { error: notFound('customer', id).error } };
      const pm = params['invoice_settings[default_payment_method]'];
      if (pm !== undefined) {
        if (attachedTo.get(pm) !== id) {
          return {
            status: 400,
            body: { error: { type: 'invalid_request_error', message: `The payment method ${pm} is not attached to ${id}.` } },
          };
        }
        customer.invoice_settings = { default_payment_method: pm };
      }
      return { status: 200, body: customerJson(customer, expand) };
    }
    if (customerMatch && method === 'DELETE') {
      const id = decodeURIComponent(customerMatch[1]);
      if (!customers.has(id)) return { status: 404, body: { error: notFound('customer', id).error } };
      customers.delete(id);
      deletedCustomers.push(id);
      // As on Stripe: deleting a customer cancels its subscriptions at once.
      for (const sub of subscriptions.values()) {
        if (sub.customer !== id || sub.status === 'canceled' || sub.status === 'incomplete_expired') continue;
        sub.status = sub.status === 'incomplete' ? 'incomplete_expired' : 'canceled';
        sub.canceled_at = now();
      }
      return { status: 200, body: { id, object: 'customer', deleted: true } };
    }
    const match = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (match) {
      const sub = subscriptions.get(decodeURIComponent(match[1]));
      if (!sub) return { status: 404, body: { error: notFound('subscription', match[1]).error } };
      if (method === 'GET') return { status: 200, body: subscriptionJson(sub, expand) };
      if (method === 'POST') {
        if (params.cancel_at_period_end !== undefined) {
          sub.cancel_at_period_end = params.cancel_at_period_end === 'true';
          sub.cancel_at = sub.cancel_at_period_end ? sub.current_period_end : null;
        }
        if (params.default_payment_method !== undefined) sub.default_payment_method = params.default_payment_method || null;
        return { status: 200, body: subscriptionJson(sub, expand) };
      }
      if (method === 'DELETE') {
        if (sub.status === 'canceled') {
          return {
            status: 400,
            body: { error: { type: 'invalid_request_error', message: 'This subscription is already canceled.' } },
          };
        }
        sub.status = sub.status === 'incomplete' ? 'incomplete_expired' : 'canceled';
        sub.canceled_at = now();
        return { status: 200, body: subscriptionJson(sub, expand) };
      }
    }
    return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` } } };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://double');
      const source = req.method === 'POST' ? Buffer.concat(chunks).toString() : url.search.slice(1);
      const params = Object.fromEntries(new URLSearchParams(source));
      requests.push({ method: req.method ?? '', path: url.pathname, params, headers: req.headers });
      let answer: { status: number; body: unknown };
      const failing =
        nextFailure &&
        (!nextFailure.method || nextFailure.method === req.method) &&
        (!nextFailure.pathPrefix || url.pathname.startsWith(nextFailure.pathPrefix));
      if (nextFailure && failing) {
        answer = { status: nextFailure.status, body: { error: nextFailure.error } };
        nextFailure.times -= 1;
        if (nextFailure.times <= 0) nextFailure = null;
      } else {
        const key = req.method === 'POST' ? req.headers['idempotency-key'] : undefined;
        const replay = typeof key === 'string' ? idempotent.get(key) : undefined;
        if (replay) answer = replay;
        else {
          beforeRoute?.(req.method ?? '', url.pathname);
          answer = route(req.method ?? '', url.pathname, params);
          if (typeof key === 'string') idempotent.set(key, answer);
        }
      }
      const fault = afterWork && afterWork.method === req.method && url.pathname.startsWith(afterWork.pathPrefix) ? afterWork : null;
      if (fault) {
        fault.times -= 1;
        if (fault.times <= 0) afterWork = null;
        if (fault.kind === 'reset') return void req.socket.destroy();
        if (fault.kind === 'error500')
          answer = { status: 500, body: { error: { type: 'api_error', message: 'An unknown error occurred' } } };
      }
      const send = () => {
        res.writeHead(answer.status, { 'Content-Type': 'application/json', 'Request-Id': `req_${requests.length}` });
        res.end(JSON.stringify(answer.body));
      };
      if (fault?.kind !== 'slow') return send();
      const timer = setTimeout(() => {
        held.delete(timer);
        if (!res.destroyed) send();
      }, fault.ms);
      held.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;

  return {
    port,
    /**
     * The environment that points a server at this double: test keys (publishable `pk_test_server`), the
     * webhook secret given, and the monthly and yearly prices the double knows. The mode is the caller's.
     */
    env: (webhookSecret: string): Record<string, string> => ({
      STRIPE_SECRET_KEY: 'sk_test_server',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_server',
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(port),
      STRIPE_API_PROTOCOL: 'http',
      STRIPE_PRICE_MONTHLY: 'price_test_monthly',
      STRIPE_PRICE_YEARLY: 'price_test_yearly',
    }),
    requests,
    subscriptions,
    customers,
    deletedCustomers,
    invoices,
    refunds,
    portalSessions,
    /**
     * The next `times` requests answer this error instead (the SDK retries 5xx answers); with
     * `only`, just the requests of that method whose path starts with `pathPrefix`.
     */
    failNext(status: number, error: Record<string, unknown>, times = 1, only?: { method: string; pathPrefix: string }) {
      nextFailure = { status, error, times, ...only };
    },
    clearFailure() {
      nextFailure = null;
      afterWork = null;
    },
    /**
     * The next `times` requests of `method` to paths starting with `pathPrefix` are carried out
     * (the object is created, its idempotency key remembered) but answered late, with a 500, or not
     * at all: what a gateway timing out or failing mid-request looks like to its caller.
     */
    failAfterWork(fault: AfterWorkFault, times: number, only: { method: string; pathPrefix: string }) {
      afterWork = { ...fault, times, ...only };
    },
    /** Calls `hook` before answering each request until set to null. */
    onRequest(hook: ((method: string, path: string) => void) | null) {
      beforeRoute = hook;
    },
    /** Requests whose path starts with prefix, in order. */
    requestsTo(method: string, prefix: string) {
      return requests.filter((r) => r.method === method && r.path.startsWith(prefix));
    },
    async stop() {
      for (const timer of held) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type StripeDouble = Awaited<ReturnType<typeof startStripeDouble>>;
