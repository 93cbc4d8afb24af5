// @ts-nocheck
import type { Core } from '@strapi/strapi';
import { SandboxCardError, SandboxGateway, isGatewayError, type PaymentGateway } from '../../../payments';
import { handleGatewayError, sendError } from '../../../payments/http';
import type { RequestContext } from '../../../request-context';

// koa-body keeps the raw request body here when strapi::body has includeUnparsed: true (config/middlewares.ts).
const UNPARSED_BODY = Symbol.for('unparsedBody');

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const gateway = (): PaymentGateway => strapi.service('api::payment.gateway').get();

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
      const subscriptions = strapi.service('api::subscription.subscription');
      try {
        const paid = await subscriptions.whileLocked(await sandbox.subscriptionOfSecret(body.clientSecret), async () => {
          const { paymentIntent, subscriptionId } = await sandbox.confirmPayment(body);
          await subscriptions.syncFromGateway(subscriptionId);
          return paymentIntent;
        });
        ctx.body = { paymentIntent: paid };
      } catch (error) {
        if (error instanceof SandboxCardError) {
          sendError(ctx, error.status, 'CardError', error.message, { code: error.code });
          return;
        }
        handleGatewayError(strapi, ctx, error);
      }
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
        const result = await strapi.service('api::subscription.subscription').handleEvent(event);
        ctx.body = { received: true, ...result };
      } catch (error) {
        // 5xx so that Stripe retries; the event was not recorded as processed.
        handleGatewayError(strapi, ctx, error);
      }
    },
  };
};
