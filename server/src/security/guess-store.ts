import type Redis from 'ioredis';
import { MEMORY_MAX_KEYS, logOutage, sharedRedis, whenConnected } from './limits';

/**
 * The counters of guessed secrets (src/security/login-throttle.ts): one atomic step counts an
 * attempt BEFORE its secret is checked, so concurrent guesses cannot all pass a check made before
 * any failure was recorded. Per key: `failures` in a window, a `lock`, and `lockouts` within a day
 * (each lock doubles the next). The attempt that uses the last failure allowed sets the lock in the
 * same step, so every later one is refused while it is checked.
 *
 * With REDIS_URL the steps are Lua scripts (atomic on one Redis, shared by every instance); without
 * it, plain JavaScript on in-memory maps (atomic in this one process), at most MEMORY_MAX_KEYS keys each.
 */

export interface GuessRules {
  /** Failures counted in a window before the lock. */
  allowed: number;
  windowSec: number;
  /** The first lock; each further lock within a day doubles it, up to maxLockSec. */
  lockSec: number;
  maxLockSec: number;
}

export type Reserved =
  /** Counted: the n-th failure of the window; `lockedSec` > 0 when this attempt set the lock. */
  | { kind: 'counted'; count: number; lockedSec: number }
  | { kind: 'locked'; retryAfterSec: number }
  /** The store cannot be reached: nothing was counted. */
  | { kind: 'unavailable' };

export interface GuessStore {
  reserve(key: string, rules: GuessRules): Promise<Reserved>;
  /** A right guess: the failures are forgotten, and a lock this attempt set is lifted. */
  right(key: string, lockedSec: number): Promise<void>;
  /** Nothing was checked after all (e.g. a malformed request): the attempt is given back. */
  giveBack(key: string, lockedSec: number, rules: GuessRules): Promise<void>;
  lockedFor(key: string): Promise<number>;
  /** Failures, lock and lockouts (a password reset). */
  clear(key: string): Promise<void>;
  /** Keys held in this process's memory; null when they live in Redis. */
  storedKeys(): number | null;
}

const DAY_SEC = 24 * 60 * 60;
const lockLength = (nth: number, { lockSec, maxLockSec }: GuessRules) =>
  Math.floor(Math.min(lockSec * 2 ** Math.min(Math.max(0, nth - 1), 20), maxLockSec));

interface Entry {
  value: number;
  endsAt: number;
}

/** A map of counters that expire, bounded: past maxKeys, expired ones go first, then the oldest, down to 90 %. */
class ExpiringCounts {
  private readonly entries = new Map<string, Entry>();
  constructor(private readonly maxKeys: number) {}

  get(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.endsAt > Date.now()) return entry;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: number, seconds: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, endsAt: Date.now() + seconds * 1000 });
    if (this.entries.size <= this.maxKeys) return;
    const now = Date.now();
    for (const [stale, { endsAt }] of this.entries) if (endsAt <= now) this.entries.delete(stale);
    const keep = Math.floor(this.maxKeys * 0.9);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= keep) break;
      this.entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Every method runs to its end without awaiting anything: atomic within the process. */
function memoryStore(maxKeys: number): GuessStore {
  const failures = new ExpiringCounts(maxKeys);
  const locks = new ExpiringCounts(maxKeys);
  const lockouts = new ExpiringCounts(maxKeys);
  const secondsLeft = (entry: Entry) => Math.max(1, Math.ceil((entry.endsAt - Date.now()) / 1000));
  const lift = (key: string) => {
    locks.delete(key);
    const nth = lockouts.get(key);
    if (nth && nth.value > 0) nth.value -= 1;
  };
  return {
    async reserve(key, rules) {
      const lock = locks.get(key);
      if (lock) return { kind: 'locked', retryAfterSec: secondsLeft(lock) };
      const window = failures.get(key);
      const count = (window?.value ?? 0) + 1;
      if (window) window.value = count;
      else failures.set(key, count, rules.windowSec);
      if (count < rules.allowed) return { kind: 'counted', count, lockedSec: 0 };
      const nth = (lockouts.get(key)?.value ?? 0) + 1;
      const previous = lockouts.get(key);
      if (previous) previous.value = nth;
      else lockouts.set(key, nth, DAY_SEC);
      const lockedSec = lockLength(nth, rules);
      locks.set(key, 1, lockedSec);
      failures.delete(key);
      return { kind: 'counted', count, lockedSec };
    },
    async right(key, lockedSec) {
      failures.delete(key);
      if (lockedSec > 0) lift(key);
    },
    async giveBack(key, lockedSec, rules) {
      if (lockedSec > 0) {
        lift(key);
        failures.set(key, rules.allowed - 1, rules.windowSec);
        return;
      }
      const window = failures.get(key);
      if (window && window.value > 0) window.value -= 1;
    },
    async lockedFor(key) {
      const lock = locks.get(key);
      return lock ? secondsLeft(lock) : 0;
    },
    async clear(key) {
      failures.delete(key);
      locks.delete(key);
      lockouts.delete(key);
    },
    storedKeys: () => failures.size + locks.size + lockouts.size,
  };
}

// KEYS: failures, lock, lockouts. ARGV: windowSec, allowed, lockSec, maxLockSec.
const RESERVE = `
local left = redis.call('PTTL', KEYS[2])
if left > 0 then return {0, left} end
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
if n < tonumber(ARGV[2]) then return {n, -1} end
local nth = redis.call('INCR', KEYS[3])
if nth == 1 then redis.call('EXPIRE', KEYS[3], ${DAY_SEC}) end
local seconds = math.floor(math.min(tonumber(ARGV[3]) * 2 ^ math.min(nth - 1, 20), tonumber(ARGV[4])))
redis.call('SET', KEYS[2], '1', 'EX', seconds)
redis.call('DEL', KEYS[1])
return {n, seconds}
`;
// KEYS: failures, lock, lockouts. ARGV: lockedSec, allowed, windowSec ('right' passes allowed 0: no give-back).
const SETTLE = `
if tonumber(ARGV[1]) > 0 then
  redis.call('DEL', KEYS[2])
  if tonumber(redis.call('GET', KEYS[3]) or '0') > 0 then redis.call('DECR', KEYS[3]) end
end
if tonumber(ARGV[2]) == 0 then
  redis.call('DEL', KEYS[1])
elseif tonumber(ARGV[1]) > 0 then
  redis.call('SET', KEYS[1], tonumber(ARGV[2]) - 1, 'EX', ARGV[3])
elseif tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then
  redis.call('DECR', KEYS[1])
end
return 1
`;

/** Counts in Redis, shared by every instance; `unavailable` while it cannot be reached. */
function redisStore(client: Redis): GuessStore {
  const keysOf = (key: string) => ['failures', 'lock', 'lockouts'].map((part) => `carnivo:guesses:${key}:${part}`);
  const run = async <T>(work: () => Promise<T>): Promise<T | null> => {
    try {
      await whenConnected(client);
      return await work();
    } catch (error) {
      logOutage(error);
      return null;
    }
  };
  const settle = (key: string, lockedSec: number, allowed: number, windowSec: number) =>
    run(() => client.eval(SETTLE, 3, ...keysOf(key), lockedSec, allowed, windowSec));
  return {
    async reserve(key, rules) {
      const answer = (await run(() =>
        client.eval(RESERVE, 3, ...keysOf(key), rules.windowSec, rules.allowed, rules.lockSec, rules.maxLockSec),
      )) as [number, number] | null;
      if (!answer) return { kind: 'unavailable' };
      const [count, second] = answer;
      if (count === 0) return { kind: 'locked', retryAfterSec: Math.max(1, Math.ceil(second / 1000)) };
      return { kind: 'counted', count, lockedSec: Math.max(0, second) };
    },
    async right(key, lockedSec) {
      await settle(key, lockedSec, 0, 0);
    },
    async giveBack(key, lockedSec, rules) {
      await settle(key, lockedSec, rules.allowed, rules.windowSec);
    },
    async lockedFor(key) {
      const left = await run(() => client.pttl(keysOf(key)[1]));
      return left !== null && left > 0 ? Math.max(1, Math.ceil(left / 1000)) : 0;
    },
    async clear(key) {
      await run(() => client.del(...keysOf(key)));
    },
    storedKeys: () => null,
  };
}

const memoryStores = new Map<string, GuessStore>();

/**
 * The store of a family of keys: Redis when REDIS_URL is set (read on first use), else a memory
 * store of the family's own, so one family (e.g. made-up log-in identifiers) cannot push another's
 * keys out of memory.
 */
export function guessStore(family: string): GuessStore {
  const client = sharedRedis();
  if (client) return redisStore(client);
  let store = memoryStores.get(family);
  if (!store) memoryStores.set(family, (store = memoryStore(MEMORY_MAX_KEYS)));
  return store;
}
