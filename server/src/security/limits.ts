import Redis from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Counters that every server instance must share: rate limits, log-in throttling, upload quotas.
 *
 * With REDIS_URL set they live in Redis, so N instances enforce one limit; without it, in this
 * process's memory (the embedded one-process default), at most `maxKeys` keys per limiter. When
 * Redis cannot be reached the limits fail open: the request goes through, and the outage is logged
 * loudly (at most every 10 s), so a Redis outage never turns into 5xx answers.
 */

export interface Verdict {
  allowed: boolean;
  /** Seconds until the next attempt may succeed (0 when allowed). */
  retryAfterSec: number;
  /** Points used in the current window, this one included (0 when unknown, e.g. Redis down). */
  consumed: number;
}

export interface Limiter {
  /** Counts one attempt for key. */
  consume(key: string): Promise<Verdict>;
  /** Reads the key's state without counting. */
  peek(key: string): Promise<Verdict>;
  /** Forgets the key (e.g. after a successful log-in or a password reset). */
  reset(key: string): Promise<void>;
  /** Blocks the key for seconds, whatever its count. */
  block(key: string, seconds: number): Promise<void>;
  /** Keys held in this process's memory; null when they live in Redis. */
  storedKeys(): number | null;
}

export interface LimitOptions {
  points: number;
  durationSec: number;
  /** In-memory mode only: keys kept at most (default MEMORY_MAX_KEYS). */
  maxKeys?: number;
}

/** Keys an in-memory limiter keeps; past it the oldest windows are forgotten, so memory stays bounded. */
export const MEMORY_MAX_KEYS = 100_000;

type Logger = { error(message: string): void; warn(message: string): void; info(message: string): void };

const consoleLogger: Logger = console;
const log = (): Logger => (globalThis as { strapi?: { log?: Logger } }).strapi?.log ?? consoleLogger;

let redisClient: Redis | null | undefined;
let lastOutageLog = 0;

export function logOutage(error: unknown): void {
  if (Date.now() - lastOutageLog < 10_000) return;
  lastOutageLog = Date.now();
  log().error(
    `[limits] REDIS UNAVAILABLE: rate limits and password log-in throttling are NOT enforced, second factors and current passwords are refused, until it is back (${error instanceof Error ? error.message : String(error)})`,
  );
}

/** The shared Redis connection, or null without REDIS_URL. */
export function sharedRedis(): Redis | null {
  if (redisClient !== undefined) return redisClient;
  const url = process.env.REDIS_URL;
  if (!url) {
    redisClient = null;
    return null;
  }
  redisClient = new Redis(url, {
    // Fail fast instead of queueing commands while disconnected: a limit check must not hang a request.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  redisClient.on('error', logOutage);
  return redisClient;
}

/** Closes the shared connection (server shutdown, tests). */
export async function closeSharedRedis(): Promise<void> {
  const client = redisClient;
  redisClient = undefined;
  lastOutageLog = 0;
  if (client) await client.quit().catch(() => client.disconnect());
}

/** Whether REDIS_URL is set and the connection answers PING. */
export async function redisReady(): Promise<boolean | null> {
  const client = sharedRedis();
  if (!client) return null;
  try {
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  }
}

const firstConnection = new WeakMap<Redis, Promise<void>>();

/**
 * Waits (briefly, once per connection) for the first connect, so the first requests after a start
 * are counted; during a later outage requests are not held up.
 */
export function whenConnected(client: Redis, timeoutMs = 1_000): Promise<void> {
  let waiting = firstConnection.get(client);
  if (!waiting) {
    waiting =
      client.status === 'ready'
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const done = () => {
              clearTimeout(timer);
              client.off('ready', done);
              resolve();
            };
            const timer = setTimeout(done, timeoutMs);
            client.once('ready', done);
          });
    firstConnection.set(client, waiting);
  }
  return waiting;
}

const verdictOf = (res: RateLimiterRes, points: number, allowed: boolean): Verdict => ({
  allowed,
  retryAfterSec: allowed ? 0 : Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  consumed: Math.min(res.consumedPoints, Number.MAX_SAFE_INTEGER) || (allowed ? 1 : points + 1),
});

const open: Verdict = { allowed: true, retryAfterSec: 0, consumed: 0 };

/**
 * Fixed windows in this process's memory, bounded: rate-limiter-flexible's memory store keeps every
 * key until its window ends, so distinct keys (e.g. made-up log-in identifiers) could grow it without
 * limit. Past maxKeys, expired windows go first, then the oldest, down to 90 %.
 */
function boundedMemoryLimiter(points: number, durationSec: number, maxKeys: number): Limiter {
  const windows = new Map<string, { consumed: number; endsAt: number }>();
  const live = (key: string) => {
    const entry = windows.get(key);
    if (entry && entry.endsAt > Date.now()) return entry;
    windows.delete(key);
    return undefined;
  };
  const put = (key: string, entry: { consumed: number; endsAt: number }) => {
    // Re-inserted, so Map order stays the order windows started in.
    windows.delete(key);
    windows.set(key, entry);
    if (windows.size <= maxKeys) return;
    const now = Date.now();
    for (const [stale, { endsAt }] of windows) if (endsAt <= now) windows.delete(stale);
    const keep = Math.floor(maxKeys * 0.9);
    for (const oldest of windows.keys()) {
      if (windows.size <= keep) break;
      windows.delete(oldest);
    }
  };
  const waitOf = (entry: { endsAt: number }) => Math.max(1, Math.ceil((entry.endsAt - Date.now()) / 1000));

  return {
    async consume(key) {
      const entry = live(key);
      if (!entry) {
        put(key, { consumed: 1, endsAt: Date.now() + durationSec * 1000 });
        return { allowed: true, retryAfterSec: 0, consumed: 1 };
      }
      entry.consumed += 1;
      const allowed = entry.consumed <= points;
      return { allowed, retryAfterSec: allowed ? 0 : waitOf(entry), consumed: entry.consumed };
    },
    async peek(key) {
      const entry = live(key);
      if (!entry) return { allowed: true, retryAfterSec: 0, consumed: 0 };
      const allowed = entry.consumed < points;
      return { allowed, retryAfterSec: allowed ? 0 : waitOf(entry), consumed: entry.consumed };
    },
    async reset(key) {
      windows.delete(key);
    },
    async block(key, seconds) {
      put(key, { consumed: points + 1, endsAt: Date.now() + seconds * 1000 });
    },
    storedKeys: () => windows.size,
  };
}

/** Counts in Redis, shared by every instance; fails open while Redis cannot be reached. */
function redisLimiter(client: Redis, keyPrefix: string, points: number, durationSec: number): Limiter {
  const limiter = new RateLimiterRedis({ storeClient: client, keyPrefix, points, duration: durationSec, rejectIfRedisNotReady: true });
  const store = async () => {
    await whenConnected(client);
    return limiter;
  };
  return {
    async consume(key) {
      try {
        const res = await (await store()).consume(key);
        return verdictOf(res, points, true);
      } catch (error) {
        if (error instanceof RateLimiterRes) return verdictOf(error, points, false);
        logOutage(error);
        return open;
      }
    },
    async peek(key) {
      try {
        const res = await (await store()).get(key);
        if (!res) return { allowed: true, retryAfterSec: 0, consumed: 0 };
        const allowed = res.consumedPoints < points && res.msBeforeNext >= 0;
        return { allowed, retryAfterSec: allowed ? 0 : Math.max(1, Math.ceil(res.msBeforeNext / 1000)), consumed: res.consumedPoints };
      } catch (error) {
        logOutage(error);
        return open;
      }
    },
    async reset(key) {
      try {
        await (await store()).delete(key);
      } catch (error) {
        logOutage(error);
      }
    },
    async block(key, seconds) {
      try {
        await (await store()).block(key, seconds);
      } catch (error) {
        logOutage(error);
      }
    },
    storedKeys: () => null,
  };
}

/** A named fixed-window limiter: `points` attempts per `durationSec` for each key. */
export function createLimiter(name: string, { points, durationSec, maxKeys = MEMORY_MAX_KEYS }: LimitOptions): Limiter {
  let backend: Limiter | undefined;
  // Chosen on first use, so REDIS_URL is read when the limiter is needed.
  const store = () => {
    if (backend) return backend;
    const client = sharedRedis();
    return (backend = client
      ? redisLimiter(client, `carnivo:${name}`, points, durationSec)
      : boundedMemoryLimiter(points, durationSec, maxKeys));
  };
  return {
    consume: (key) => store().consume(key),
    peek: (key) => store().peek(key),
    reset: (key) => store().reset(key),
    block: (key, seconds) => store().block(key, seconds),
    storedKeys: () => store().storedKeys(),
  };
}
