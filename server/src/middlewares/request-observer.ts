import type { Core } from '@strapi/strapi';
import { recordRequest } from '../operations/metrics';

/**
 * In place of strapi::logger: one `http` log line per answer (method, path without its query, which
 * may hold codes or tokens, status, duration; the request id comes with every line) and the answer
 * counted in the metrics under its route pattern (src/operations/metrics.ts).
 */
const requestObserver: Core.MiddlewareFactory =
  (_config, { strapi }) =>
  async (ctx, next) => {
    const started = process.hrtime.bigint();
    let status = 500;
    try {
      await next();
      status = ctx.status;
    } catch (error) {
      // Escaped every handler: Koa answers with the error's own status, else 500.
      const given = error instanceof Error ? (error as Error & { status?: unknown }).status : undefined;
      status = typeof given === 'number' && given >= 400 && given < 600 ? given : 500;
      throw error;
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      recordRequest(ctx, status, seconds);
      const durationMs = Math.round(seconds * 1000);
      strapi.log.log({
        level: 'http',
        message: `${ctx.method} ${ctx.path} ${status} (${durationMs} ms)`,
        method: ctx.method,
        path: ctx.path,
        status,
        durationMs,
      });
    }
  };

export default requestObserver;
