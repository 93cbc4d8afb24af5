import type { Core } from '@strapi/strapi';
import type { NextMiddleware as Next, RequestContext as Context } from '../request-context';
import { closeSharedRedis } from '../security/limits';
import type { MailQueueService } from '../api/email-message/services/mail-queue';

/**
 * Graceful shutdown. Strapi's own SIGTERM/SIGINT handler destroys every open connection at once,
 * cutting requests in flight. Instead, on a stop signal this:
 * 1. marks the instance as draining (readiness answers 503, so the load balancer stops sending);
 * 2. stops accepting connections, closes idle keep-alive ones, and asks the rest to close after
 *    their current answer (Connection: close);
 * 3. waits for the requests in flight, at most SHUTDOWN_TIMEOUT_MS (default 25 s);
 * 4. then stops the mail worker (the delivery in progress finishes), shuts Strapi down (database, Redis) and exits.
 */

let inFlight = 0;
let draining = false;
const idleWaiters = new Set<() => void>();

export const isDraining = () => draining;

/** Global middleware, right after the request id: counts the requests being answered. */
export function countInFlight() {
  return async (ctx: Context, next: Next) => {
    inFlight += 1;
    try {
      if (draining) ctx.set('Connection', 'close');
      await next();
    } finally {
      inFlight -= 1;
      if (inFlight === 0) for (const wake of idleWaiters) wake();
    }
  };
}

function allAnswered(timeoutMs: number): Promise<boolean> {
  if (inFlight === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      idleWaiters.delete(wake);
      resolve(false);
    }, timeoutMs);
    const wake = () => {
      clearTimeout(timer);
      idleWaiters.delete(wake);
      resolve(true);
    };
    idleWaiters.add(wake);
  });
}

/** Drains, then destroys Strapi. Exported for tests; the signal handlers call it and exit. */
export async function drainAndStop(strapi: Core.Strapi, timeoutMs: number): Promise<{ finished: boolean }> {
  draining = true;
  const httpServer = strapi.server.httpServer as import('node:http').Server;
  httpServer.close();
  httpServer.closeIdleConnections?.();
  strapi.log.info(`[shutdown] draining: ${inFlight} request(s) in flight`);
  const finished = await allAnswered(timeoutMs);
  if (!finished) strapi.log.warn(`[shutdown] ${inFlight} request(s) still running after ${timeoutMs} ms; stopping anyway`);
  // No new delivery starts; one in progress finishes (its lease would otherwise hand it to another instance later).
  await (strapi.service('api::email-message.mail-queue') as unknown as MailQueueService).worker.stop();
  await closeSharedRedis();
  await strapi.destroy();
  return { finished };
}

export function installGracefulShutdown(strapi: Core.Strapi): void {
  const timeoutMs = Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 25_000) || 25_000;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    // Strapi's own handler (core/utils/signals) would cut the connections first.
    for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
    process.once(signal, () => {
      strapi.log.info(`[shutdown] ${signal} received`);
      drainAndStop(strapi, timeoutMs)
        .then(({ finished }) => process.exit(finished ? 0 : 1))
        .catch((error: unknown) => {
          strapi.log.error(`[shutdown] failed: ${String(error)}`);
          process.exit(1);
        });
    });
  }
}
