// @ts-nocheck
import { createLimiter, type Limiter } from './limits';

/**
 * Per-account throttling of failed password log-ins, whatever the client address (password
 * spraying from many addresses counts against the account, not the address):
 * after FAILURES_ALLOWED failures within FAILURE_WINDOW_SEC the account's log-in is locked for
 * BASE_LOCK_SEC; each further lockout within a day doubles it, up to MAX_LOCK_SEC. A successful
 * log-in clears the failures; a password reset clears everything. Counters are shared by all
 * instances through Redis when REDIS_URL is set.
 */

export const FAILURES_ALLOWED = 10;
export const FAILURE_WINDOW_SEC = 15 * 60;
export const BASE_LOCK_SEC = 15 * 60;
export const MAX_LOCK_SEC = 60 * 60;

export const lockedMessage = (retryAfterSec: number) => {
  const minutes = Math.max(1, Math.ceil(retryAfterSec / 60));
  return `Too many failed log-in attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} or reset your password.`;
};

let limiters: { failures: Limiter; lock: Limiter; lockouts: Limiter } | undefined;
const get = () =>
  (limiters ??= {
    failures: createLimiter('login-failures', { points: FAILURES_ALLOWED, durationSec: FAILURE_WINDOW_SEC }),
    lock: createLimiter('login-lock', { points: 1, durationSec: MAX_LOCK_SEC }),
    lockouts: createLimiter('login-lockouts', { points: 1_000_000, durationSec: 24 * 60 * 60 }),
  });

const key = (userId: number | string) => String(userId);

/** Seconds the account's log-in stays locked, 0 when it is not. */
export async function lockedFor(userId: number | string): Promise<number> {
  const verdict = await get().lock.peek(key(userId));
  return verdict.allowed ? 0 : verdict.retryAfterSec;
}

/** Counts a failed log-in; returns the lock's length in seconds when this failure locked the account. */
export async function recordFailure(userId: number | string): Promise<number> {
  const { failures, lock, lockouts } = get();
  const verdict = await failures.consume(key(userId));
  if (verdict.allowed && verdict.consumed < FAILURES_ALLOWED) return 0;
  // verdict.consumed is 0 when the store is down: fail open, nothing is locked.
  if (verdict.consumed === 0) return 0;
  const { consumed: nth } = await lockouts.consume(key(userId));
  const seconds = Math.min(BASE_LOCK_SEC * 2 ** Math.max(0, nth - 1), MAX_LOCK_SEC);
  await lock.block(key(userId), seconds);
  await failures.reset(key(userId));
  return seconds;
}

export async function recordSuccess(userId: number | string): Promise<void> {
  await get().failures.reset(key(userId));
}

/** After a password reset: the member gets straight back in. */
export async function clearThrottle(userId: number | string): Promise<void> {
  const { failures, lock, lockouts } = get();
  await Promise.all([failures.reset(key(userId)), lock.reset(key(userId)), lockouts.reset(key(userId))]);
}
