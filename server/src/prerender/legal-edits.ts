import type { Core } from '@strapi/strapi';
import type Redis from 'ioredis';
import { sharedRedis } from '../security/limits';
import { LEGAL_CONTENT_TYPES, type Prerenderer } from './prerender';

/**
 * An editor's change to a legal page drops its rendered HTML at once: on this instance through a
 * database lifecycle, and on every other instance through Redis (REDIS_URL) publish/subscribe.
 * Without Redis, or while it is down, the other instances keep their copy at most LEGAL_CACHE_MS.
 */

const LEGAL_EDITS_CHANNEL = 'carnivo:prerender:legal-edited';

/**
 * The channel of the site whose instances share `redis`'s database. Channels are not per database in
 * Redis: without the number, every deployment (or test cluster) on one Redis server heard every other's edits.
 */
export const legalEditsChannel = (redis: Redis): string => `${LEGAL_EDITS_CHANNEL}:${redis.options.db ?? 0}`;

const subscribers = new Set<Redis>();

export function watchLegalEdits(strapi: Core.Strapi, prerenderer: Prerenderer, redis: Redis | null = sharedRedis()): void {
  const announce = () => {
    prerenderer.forgetLegalPages();
    redis?.publish(legalEditsChannel(redis), String(Date.now())).catch((error: unknown) => {
      strapi.log.warn(
        `[prerender] could not tell the other instances about a legal page edit (they refresh within 30 s): ${String(error)}`,
      );
    });
  };
  strapi.db.lifecycles.subscribe({
    models: LEGAL_CONTENT_TYPES,
    afterCreate: announce,
    afterUpdate: announce,
    afterDelete: announce,
    afterCreateMany: announce,
    afterUpdateMany: announce,
    afterDeleteMany: announce,
  });

  if (!redis) return;
  // A connection in subscriber mode can do nothing else: a second one, closed with the server.
  // It must outlive an outage at start-up: queue the SUBSCRIBE and retry it for as long as it takes;
  // and one later on: subscribe again on every reconnect (tests/faults/redis-outage.test.ts).
  const subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, autoResubscribe: true });
  subscribers.add(subscriber);
  subscriber.on('error', () => {}); // the shared connection already logs outages
  const channel = legalEditsChannel(redis);
  subscriber.on('message', (heard) => {
    if (heard === channel) prerenderer.forgetLegalPages();
  });
  subscriber.subscribe(channel).catch((error: unknown) => {
    strapi.log.warn(`[prerender] not listening for legal page edits on other instances: ${String(error)}`);
  });
}

/** Closes the subscriber connections (server shutdown, tests). */
export async function closeLegalEditWatchers(): Promise<void> {
  const closing = [...subscribers].map((subscriber) => subscriber.quit().catch(() => subscriber.disconnect()));
  subscribers.clear();
  await Promise.all(closing);
}
