import type { Core } from '@strapi/strapi';
import type { Context, Next } from 'koa';
import { BODY_METHODS, BODY_PARSED, answer, apiRoute } from './body-errors';

/**
 * Right after strapi::body (see ./body-errors.ts): marks the body as read, so global::body-errors
 * leaves every later error alone, and refuses API bodies that are not a JSON object. Every API route
 * of this project takes an object (or nothing): a JSON array gets 400, a text body (text/plain,
 * text/html, ...) 415. An empty body is left to the route.
 */
const bodyParsed: Core.MiddlewareFactory = (_config, { strapi }) => {
  const prefix = strapi.config.get<string>('api.rest.prefix', '/api');

  return async (ctx: Context, next: Next) => {
    (ctx.state as Record<symbol, unknown>)[BODY_PARSED] = true;

    if (BODY_METHODS.has(ctx.method) && apiRoute(ctx, prefix) !== null) {
      const body: unknown = ctx.request.body;
      if (Array.isArray(body)) {
        return answer(ctx, { status: 400, message: 'The request body must be a JSON object, not a list' });
      }
      if (typeof body === 'string' && body.trim() !== '') {
        return answer(ctx, { status: 415, message: 'The request body must be JSON: send it with Content-Type: application/json' });
      }
    }
    return next();
  };
};

export default bodyParsed;
