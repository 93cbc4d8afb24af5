import type { Core } from '@strapi/strapi';
import type { RequestContext as Context } from '../../../request-context';
import { isDraining } from '../../../operations/shutdown';
import { redisReady } from '../../../security/limits';

type Check = 'ok' | 'failing' | 'not configured';

const within = <T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> =>
  Promise.race([promise, new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms).unref())]);

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  live(ctx: Context) {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  },

  async ready(ctx: Context) {
    const database: Check = await within(
      strapi.db.connection.raw('select 1').then(
        (): Check => 'ok',
        (): Check => 'failing',
      ),
      2_000,
      'failing',
    );
    const redisUp = await within(redisReady(), 2_000, false);
    const redis: Check = redisUp === null ? 'not configured' : redisUp ? 'ok' : 'failing';
    const draining = isDraining();
    // Redis failing does not take the instance out: limits fail open (src/security/limits.ts).
    const ready = database === 'ok' && !draining;
    ctx.set('Cache-Control', 'no-store');
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ok' : draining ? 'draining' : 'unavailable', database, redis };
  },
});
