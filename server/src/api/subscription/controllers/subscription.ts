import type { Core } from '@strapi/strapi';
import { handleGatewayError } from '../../../payments/http';
import type { MemberContext } from '../../../request-context';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const service = () => strapi.service('api::subscription.subscription');

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
    /** POST /api/subscriptions/resume */
    resume: (ctx: MemberContext) => run(ctx, () => service().resume(ctx.state.user.id)),
    /** GET /api/subscriptions/invoices?page=N */
    invoices: (ctx: MemberContext) => run(ctx, () => service().invoices(ctx.state.user.id, ctx.query.page)),
    /** POST /api/subscriptions/portal */
    portal: (ctx: MemberContext) => run(ctx, () => service().portal(ctx.state.user.id)),
  };
};
