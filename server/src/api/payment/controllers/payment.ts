import type { Core } from '@strapi/strapi';
import { SandboxCardError, SandboxGateway, isGatewayError, type PaymentGateway } from '../../../payments';
import { handleGatewayError, sendError } from '../../../payments/http';
import type { MemberContext, RequestContext } from '../../../request-context';
import { UID } from '../../../content-types';
import { sitePage, siteStylesheets } from '../../../site-page';
import { escapeHtml } from '../../../escape-html';
import { subscriptionService } from '../../subscription/services/subscription';

function money(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}
// The long style the member area shows dates in (December 24, 2026); in UTC, as the server knows no time zone.
const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
const day = (iso: string | null) => (iso ? longDate.format(new Date(iso)) : '');

// koa-body keeps the raw request body here when strapi::body has includeUnparsed: true (config/middlewares.ts).
const UNPARSED_BODY = Symbol.for('unparsedBody');

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const gateway = (): PaymentGateway => strapi.service('api::payment.gateway').get();

  /** A card the sandbox refuses answers with its own status and code; other failures as gateway errors. */
  const answerFailure = (ctx: RequestContext, error: unknown) => {
    if (error instanceof SandboxCardError) {
      sendError(ctx, error.status, 'CardError', error.message, { code: error.code });
      return;
    }
    handleGatewayError(strapi, ctx, error);
  };

  return {
    /** GET /api/payments/config: { mode, publishableKey } for the SPA. */
    async config(ctx: RequestContext) {
      const { mode, publishableKey } = gateway();
      ctx.body = { mode, publishableKey };
    },

    /** POST /api/payments/sandbox/confirm { clientSecret, cardNumber, expiry, cvc } (sandbox mode only). */
    async sandboxConfirm(ctx: RequestContext) {
      const sandbox = gateway();
      if (!(sandbox instanceof SandboxGateway)) {
        sendError(ctx, 404, 'NotFoundError', 'Not Found');
        return;
      }
      const body = (ctx.request.body ?? {}) as Record<string, unknown>;
      const subscriptions = subscriptionService(strapi);
      try {
        const paid = await subscriptions.whileLocked(await sandbox.subscriptionOfSecret(body.clientSecret), async () => {
          const { paymentIntent, subscriptionId } = await sandbox.confirmPayment(body);
          await subscriptions.syncFromGateway(subscriptionId);
          return paymentIntent;
        });
        ctx.body = { paymentIntent: paid };
      } catch (error) {
        answerFailure(ctx, error);
      }
    },

    /** POST /api/payments/sandbox/card { cardNumber, expiry, cvc } (sandbox mode only, member): replaces the card on file. */
    async sandboxCard(ctx: MemberContext) {
      const body = ctx.request.body;
      const card = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
      try {
        ctx.body = await subscriptionService(strapi).updateSandboxCard(ctx.state.user.id, card);
      } catch (error) {
        answerFailure(ctx, error);
      }
    },

    /**
     * GET /api/payments/sandbox/receipts/:id (sandbox mode only): a sandbox invoice's receipt page.
     * Public like Stripe's hosted invoice pages (the SPA opens it in a new tab, without the token):
     * the id carries an HMAC under a per-subscription secret, so only someone given the address
     * can open it. The page shows no name or e-mail address.
     */
    async sandboxReceipt(ctx: RequestContext) {
      const sandbox = gateway();
      const receipt = sandbox instanceof SandboxGateway ? await sandbox.receipt(ctx.params.id) : null;
      if (!receipt) {
        sendError(ctx, 404, 'NotFoundError', 'Receipt not found.');
        return;
      }
      const { invoice } = receipt;
      const plan = await strapi
        .documents(UID.subscriptionPlan)
        .findFirst({ filters: { stripe_price_id: receipt.priceId }, fields: ['name'] });
      const rows: [string, string][] = [
        ['Invoice', invoice.id],
        ['Date', day(invoice.date)],
        ['Plan', plan?.name ?? receipt.priceId],
        ['Period', `${day(invoice.periodStart)} to ${day(invoice.periodEnd)}`],
        ['Amount paid', money(invoice.amount, invoice.currency)],
        ['Status', invoice.status],
      ];
      ctx.set('Cache-Control', 'no-store');
      ctx.set('X-Robots-Tag', 'noindex');
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = sitePage({
        title: 'Receipt',
        content: [
          '<h1>Carnivo receipt</h1>',
          '<p class="auth-card__lead">Test mode (sandbox): no real payment was taken.</p>',
          `<dl class="details">${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`,
          '<p class="auth-card__links"><a href="/">Back to Carnivo</a></p>',
        ].join('\n'),
        stylesheets: await siteStylesheets(strapi),
      });
    },

    /** POST /api/payments/webhook: Stripe events, signature checked over the raw body (Stripe mode only). */
    async webhook(ctx: RequestContext) {
      const stripe = gateway();
      if (stripe.mode !== 'stripe') {
        sendError(ctx, 404, 'NotFoundError', 'Not Found');
        return;
      }
      const raw = ctx.request.body?.[UNPARSED_BODY];
      const header = ctx.request.headers['stripe-signature'];
      const signature = Array.isArray(header) ? header[0] : header;
      if (typeof raw !== 'string' || raw === '' || !signature) {
        sendError(ctx, 400, 'WebhookSignatureError', 'Missing Stripe signature or body.');
        return;
      }
      let event;
      try {
        event = stripe.constructWebhookEvent(raw, signature);
      } catch (error) {
        if (isGatewayError(error) && error.kind === 'signature') {
          strapi.log.warn(`[payments] webhook refused: ${error.message}`);
          sendError(ctx, 400, 'WebhookSignatureError', 'Invalid Stripe signature.');
          return;
        }
        throw error;
      }
      try {
        const result = await subscriptionService(strapi).handleEvent(event);
        ctx.body = { received: true, ...result };
      } catch (error) {
        // 5xx so that Stripe retries; the event was not recorded as processed.
        handleGatewayError(strapi, ctx, error);
      }
    },
  };
};
