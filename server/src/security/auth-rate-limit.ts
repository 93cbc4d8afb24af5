import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { createLimiter, type Limiter } from './limits';
import { recordRateLimitRefusal, type RefusingLimit } from '../operations/metrics';

/**
 * Replaces users-permissions' own rateLimit middleware (koa2-ratelimit, one process's memory) on
 * every auth route it guards, and the admin panel's (src/middlewares/admin-auth-throttle.ts), with
 * counters shared by all instances (src/security/limits.ts):
 *
 * - every guarded route: AUTH_RATELIMIT_MAX attempts per AUTH_RATELIMIT_INTERVAL_MS per route and
 *   client address (as before);
 * - registration, forgot-password (the admin panel's too) and send-email-confirmation also per client address whatever
 *   the e-mail: AUTH_ADDRESS_LIMIT_PER_MINUTE and AUTH_ADDRESS_LIMIT_PER_DAY. The e-mail is never
 *   part of a key, so changing it does not buy a fresh bucket.
 */

const { RateLimitError } = errors;

const ADDRESS_LIMITED = ['/auth/local/register', '/auth/forgot-password', '/auth/send-email-confirmation', '/admin/forgot-password'];

export const RATE_LIMIT_MESSAGE = (retryAfterSec: number) => {
  const minutes = Math.ceil(retryAfterSec / 60);
  const wait = retryAfterSec < 60 ? `${retryAfterSec} seconds` : minutes === 1 ? '1 minute' : `${minutes} minutes`;
  return `Too many requests from your network. Please try again in ${wait}.`;
};

interface SecurityConfig {
  authRateLimit: { enabled: boolean; max: number; intervalMs: number };
  addressLimit: { perMinute: number; perDay: number };
}

type Ctx = { request: { path: string; ip: string }; set(name: string, value: string): void };
type Next = () => Promise<unknown>;

/** Lower-cased, normalised path without trailing slashes: one bucket for /a and /a/. */
export const normalisePath = (requestPath: string) => path.posix.normalize(String(requestPath)).toLowerCase().replace(/\/+$/, '') || '/';

/** Throws 429 with Retry-After when `limit` refuses, counted in the metrics. */
export function refuse(
  ctx: Pick<Ctx, 'set'>,
  limit: RefusingLimit,
  retryAfterSec: number,
  message = RATE_LIMIT_MESSAGE(retryAfterSec),
): never {
  recordRateLimitRefusal(limit);
  ctx.set('Retry-After', String(retryAfterSec));
  throw new RateLimitError(message, { retryAfter: retryAfterSec });
}

export function createAuthRateLimit(strapi: Core.Strapi) {
  // One limiter per name and setting, so a changed setting (strapi.config.set) takes effect at once.
  const limiters = new Map<string, Limiter>();
  const limiter = (name: string, points: number, durationSec: number) => {
    const key = `${name}:${points}/${durationSec}`;
    let found = limiters.get(key);
    if (!found) limiters.set(key, (found = createLimiter(name, { points, durationSec })));
    return found;
  };

  return async (ctx: Ctx, next: Next) => {
    const { authRateLimit, addressLimit } = strapi.config.get('security') as SecurityConfig;
    if (!authRateLimit.enabled) return next();
    const requestPath = normalisePath(ctx.request.path);
    const ip = ctx.request.ip;

    const route = limiter('auth-route', authRateLimit.max, Math.max(1, Math.round(authRateLimit.intervalMs / 1000)));
    const byRoute = await route.consume(`${requestPath}:${ip}`);
    if (!byRoute.allowed) refuse(ctx, 'auth-route', byRoute.retryAfterSec);

    if (ADDRESS_LIMITED.some((suffix) => requestPath.endsWith(suffix))) {
      for (const [name, points, durationSec] of [
        ['auth-address-minute', addressLimit.perMinute, 60],
        ['auth-address-day', addressLimit.perDay, 24 * 60 * 60],
      ] as const) {
        const verdict = await limiter(name, points, durationSec).consume(ip);
        if (!verdict.allowed) refuse(ctx, name, verdict.retryAfterSec);
      }
    }
    return next();
  };
}
