import type { Core } from '@strapi/strapi';
import type { RequestContext as Context } from '../../../request-context';
import { readiness } from '../../../operations/readiness';

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  live(ctx: Context) {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  },

  async ready(ctx: Context) {
    const { ready, draining, database, redis } = await readiness(strapi);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ok' : draining ? 'draining' : 'unavailable', database, redis };
  },
});
