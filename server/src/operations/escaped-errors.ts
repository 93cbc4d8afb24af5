import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { currentRequestId, withRequestId } from './request-ids';

/**
 * Errors no middleware answered (Koa answers them itself, e.g. a stream that failed mid-answer) go to
 * strapi.log with the request's id and path, instead of Koa's plain console.error, so they are JSON
 * lines like the rest. As Koa does, 404s and errors meant for the client (expose) are not logged.
 */
export function logEscapedErrors(strapi: Core.Strapi): void {
  const app = strapi.server.app;
  // The upload plugin's own listener hands every error to Koa's app.onerror (console.error): this one logs them instead.
  app.onerror = () => undefined;
  app.on('error', (error: unknown, ctx?: Context) => {
    const { status, expose, code } = (error ?? {}) as { status?: unknown; expose?: unknown; code?: unknown };
    // EPIPE: a browser closed the connection (e.g. to switch to range requests), as the upload plugin ignores it.
    if (status === 404 || expose === true || code === 'EPIPE') return;
    // Koa emits after the middleware chain, outside the request's async context; its answer still has the id.
    const requestId = ctx?.response.get('X-Request-Id') || currentRequestId() || '';
    const log = () =>
      strapi.log.log({
        level: 'error',
        message: `${ctx ? `${ctx.method} ${ctx.path}: ` : ''}${error instanceof Error ? error.message : String(error)}`,
        stack: error instanceof Error ? error.stack : undefined,
        ...(ctx ? { method: ctx.method, path: ctx.path } : {}),
      });
    if (requestId) withRequestId(requestId, log);
    else log();
  });
}
