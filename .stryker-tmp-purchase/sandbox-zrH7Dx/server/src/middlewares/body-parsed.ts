// @ts-nocheck
import type { Core } from '@strapi/strapi';
import type { NextMiddleware as Next, RequestContext as Context } from '../request-context';
import { BODY_METHODS, BODY_PARSED, answer, apiRoute } from './body-errors';

/** Deepest nesting of objects and lists accepted in an API body: far above any route's payload. */
export const MAX_BODY_DEPTH = 32;

/**
 * Whether value nests objects or lists more than max levels deep. Iterative: a body nested 100,000
 * levels deep parses fine, but overflows the stack of any recursive code that meets it (validators,
 * sanitizers, the JSON.stringify of an error that echoes it), which answers 500.
 */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * Right after strapi::body (see ./body-errors.ts): marks the body as read, so global::body-errors
 * leaves every later error alone, and refuses API bodies that are not a JSON object. Every API route
 * of this project takes an object (or nothing): a JSON array gets 400, a text body (text/plain,
 * text/html, ...) 415, a body nested more than MAX_BODY_DEPTH levels 400.
 * A body strapi::body does not read at all (no Content-Type, XML, a malformed multipart Content-Type)
 * gets 415; no body at all becomes an empty object, as an empty JSON body does (routes read
 * ctx.request.body without checking that it exists). An empty body is left to the route.
 */
const bodyParsed: Core.MiddlewareFactory = (_config, { strapi }) => {
  const prefix = strapi.config.get<string>('api.rest.prefix', '/api');

  return async (ctx: Context, next: Next) => {
    (ctx.state as Record<symbol, unknown>)[BODY_PARSED] = true;

    if (BODY_METHODS.has(ctx.method) && apiRoute(ctx, prefix) !== null) {
      const body: unknown = ctx.request.body;
      if (body === undefined) {
        const hasBody = (ctx.request.length ?? 0) > 0 || ctx.get('transfer-encoding') !== '';
        if (hasBody) {
          return answer(ctx, { status: 415, message: 'The request body could not be read: its Content-Type is missing or not supported' });
        }
        ctx.request.body = {};
      }
      if (Array.isArray(body)) {
        return answer(ctx, { status: 400, message: 'The request body must be a JSON object, not a list' });
      }
      if (typeof body === 'string' && body.trim() !== '') {
        return answer(ctx, { status: 415, message: 'The request body must be JSON: send it with Content-Type: application/json' });
      }
      if (nestedDeeperThan(body, MAX_BODY_DEPTH)) {
        return answer(ctx, { status: 400, message: `The request body is nested too deeply: at most ${MAX_BODY_DEPTH} levels` });
      }
    }
    return next();
  };
};

export default bodyParsed;
