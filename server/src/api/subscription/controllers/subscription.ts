import type { Core } from '@strapi/strapi';
import { handleGatewayError } from '../../../payments/http';
import type { MemberContext } from '../../../request-context';
import { subscriptionService } from '../services/subscription';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const service = () => subscriptionService(strapi);

  /** Runs an action; gateway failures become 402/502 answers, Strapi errors keep their shape. */
  const run = async (ctx: MemberContext, action: () => Promise<unknown>) => {
    try {
      const result = await action();
      if (result === null) {
        // A JSON null body (Koa would turn ctx.body = null into 204 No Content).
        ctx.status = 200;
        ctx.type = 'application/json';
        ctx.body = 'null';
      } else {
        ctx.body = result;
      }
    } catch (error) {
      handleGatewayError(strapi, ctx, error);
    }
  };

  return {
    /** GET /api/subscriptions/current */
    current: (ctx: MemberContext) => run(ctx, () => service().current(ctx.state.user.id)),
    /** POST /api/subscriptions { priceId } */
    create: (ctx: MemberContext) => run(ctx, () => service().create(ctx.state.user.id, ctx.request.body?.priceId)),
    /** GET /api/subscriptions/:id/verify */
    verify: (ctx: MemberContext) => run(ctx, () => service().verify(ctx.state.user.id, ctx.params.id)),
    /** POST /api/subscriptions/cancel */
    cancel: (ctx: MemberContext) => run(ctx, () => service().cancel(ctx.state.user.id)),
    /** POST /api/subscriptions/refund (no body): the money-back guarantee */
    refund: (ctx: MemberContext) => run(ctx, () => service().refund(ctx.state.user.id)),
    /** POST /api/subscriptions/resume */
    resume: (ctx: MemberContext) => run(ctx, () => service().resume(ctx.state.user.id)),
    /** GET /api/subscriptions/invoices?page=N */
    invoices: (ctx: MemberContext) => run(ctx, () => service().invoices(ctx.state.user.id, ctx.query.page)),
    /** GET /api/subscriptions/card */
    card: (ctx: MemberContext) => run(ctx, () => service().card(ctx.state.user.id)),
    /** POST /api/subscriptions/portal */
    portal: (ctx: MemberContext) => run(ctx, () => service().portal(ctx.state.user.id)),
  };
};
