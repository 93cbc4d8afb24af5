import type { Core } from '@strapi/strapi';
import type { NextMiddleware as Next, RequestContext as Context } from '../request-context';
import { recentDatabaseFailure, trackRequest, watchDatabaseFailures } from '../operations/database-outage';

/**
 * While the database cannot be reached, a request that needed it answers
 * 503 { data: null, error: { status: 503, name: 'ServiceUnavailableError', message, details: {} } }
 * with Retry-After, instead of a 500, or a 401 for a member whose token could not be checked
 * (docs/operations.md, "Outages: database and Redis"). Right inside strapi::errors, so it sees what
 * every route threw or answered. Readiness keeps its own 503 body and gets Retry-After.
 */

export const DATABASE_UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Please try again in a moment.';

const LOG_EVERY_MS = 10_000;
/** A 500 this soon after the process met the database unreachable is taken for the outage. */
const OUTAGE_WINDOW_MS = 5_000;

const statusOf = (error: unknown) => {
  const status = Number((error as { status?: unknown } | null)?.status);
  return Number.isInteger(status) && status >= 400 && status < 600 ? status : 500;
};

const databaseUnavailable: Core.MiddlewareFactory = (_config, { strapi }) => {
  const retryAfterSec = Math.max(1, Number.parseInt(process.env.DATABASE_RETRY_AFTER_SEC ?? '', 10) || 5);
  let lastLogAt = 0;

  const answer = (ctx: Context, failure: Error) => {
    if (Date.now() - lastLogAt >= LOG_EVERY_MS) {
      lastLogAt = Date.now();
      strapi.log.error(`[database] DATABASE UNAVAILABLE: answering 503 until it is back (${failure.message})`);
    }
    ctx.set('Retry-After', String(retryAfterSec));
    ctx.set('Cache-Control', 'no-store');
    if (ctx.status === 503) return;
    ctx.status = 503;
    ctx.body = { data: null, error: { status: 503, name: 'ServiceUnavailableError', message: DATABASE_UNAVAILABLE_MESSAGE, details: {} } };
  };

  return async (ctx: Context, next: Next) => {
    // Strapi's database exists once the server answers; wrapped on the first request.
    const client = (strapi.db?.connection as { client?: Parameters<typeof watchDatabaseFailures>[0] } | undefined)?.client;
    if (client) watchDatabaseFailures(client);

    const request = trackRequest(next);
    try {
      await request.done;
    } catch (error) {
      const failure = request.failure() ?? (statusOf(error) >= 500 ? recentDatabaseFailure(OUTAGE_WINDOW_MS) : null);
      if (!failure) throw error;
      ctx.status = 500;
      return answer(ctx, failure);
    }
    // Also what a route caught and answered itself: users-permissions answers 401 when it could not check a token.
    const failure = request.failure() ?? (ctx.status >= 500 ? recentDatabaseFailure(OUTAGE_WINDOW_MS) : null);
    if (failure && ctx.status >= 400) answer(ctx, failure);
  };
};

export default databaseUnavailable;
