import type { Core } from '@strapi/strapi';
import { createLimiter, type Limiter } from './limits';
import { refuse } from './auth-rate-limit';

/**
 * Per-account throttling of failed password log-ins, members' and administrators' alike, whatever
 * the client address (password spraying from many addresses counts against the account, not the
 * address): after FAILURES_ALLOWED failures within FAILURE_WINDOW_SEC the account's log-in is locked
 * for the lock length (BASE_LOCK_SEC); each further lockout within a day doubles it, up to the
 * maximum (MAX_LOCK_SEC). A successful log-in clears the failures; a password reset clears
 * everything. Counters are shared by all instances through Redis when REDIS_URL is set.
 *
 * The answers must not tell whether an account exists, so an identifier no account has is
 * throttled exactly like an account, under its normalised form. Its counters live in limiters of
 * their own: made-up identifiers cannot push real accounts' counts out of the bounded in-memory store.
 */

export const FAILURES_ALLOWED = 10;
export const FAILURE_WINDOW_SEC = 15 * 60;
export const BASE_LOCK_SEC = 15 * 60;
export const MAX_LOCK_SEC = 60 * 60;

export type Realm = 'member' | 'admin';

/** Whose failures count: an account, or an identifier no account has. */
export interface Subject {
  key: string;
  known: boolean;
}

/**
 * One key per identifier whatever its case or surrounding spaces, as the log-in lookups match:
 * an identifier with "@" is an e-mail, any other a username.
 */
export function normaliseIdentifier(identifier: string): string {
  const value = identifier.trim().toLowerCase();
  return `${value.includes('@') ? 'email' : 'username'}:${value}`;
}

/** Members and administrators have ids of their own: the realm keeps their counters apart. */
export const accountSubject = (realm: Realm, id: number | string): Subject => ({ key: `${realm}:${id}`, known: true });
export const unknownSubject = (realm: Realm, identifier: string): Subject => ({
  key: `${realm}:${normaliseIdentifier(identifier)}`,
  known: false,
});

export const lockedMessage = (retryAfterSec: number) => {
  const minutes = Math.max(1, Math.ceil(retryAfterSec / 60));
  return `Too many failed log-in attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} or reset your password.`;
};

interface Settings {
  lockSec: number;
  maxLockSec: number;
}

/** config/security.ts `loginThrottle` (LOGIN_LOCK_SEC, LOGIN_MAX_LOCK_SEC) once Strapi runs; the defaults otherwise. */
function settings(): Settings {
  const strapi = (globalThis as { strapi?: { config?: { get(path: string): unknown } } }).strapi;
  const configured = strapi?.config?.get('security.loginThrottle') as Partial<Settings> | undefined;
  const lockSec = Math.max(1, configured?.lockSec ?? BASE_LOCK_SEC);
  return { lockSec, maxLockSec: Math.max(lockSec, configured?.maxLockSec ?? MAX_LOCK_SEC) };
}

interface Limiters {
  failures: Limiter;
  lock: Limiter;
  lockouts: Limiter;
}
const limiterSets = new Map<string, Limiters>();
function limiters(subject: Subject, maxLockSec: number): Limiters {
  const suffix = subject.known ? '' : '-unknown';
  const id = `${suffix}/${maxLockSec}`;
  let found = limiterSets.get(id);
  if (!found) {
    found = {
      failures: createLimiter(`login-failures${suffix}`, { points: FAILURES_ALLOWED, durationSec: FAILURE_WINDOW_SEC }),
      lock: createLimiter(`login-lock${suffix}`, { points: 1, durationSec: maxLockSec }),
      lockouts: createLimiter(`login-lockouts${suffix}`, { points: 1_000_000, durationSec: 24 * 60 * 60 }),
    };
    limiterSets.set(id, found);
  }
  return found;
}

/** Seconds the subject's log-in stays locked, 0 when it is not. */
export async function lockedFor(subject: Subject): Promise<number> {
  const verdict = await limiters(subject, settings().maxLockSec).lock.peek(subject.key);
  return verdict.allowed ? 0 : verdict.retryAfterSec;
}

/** Counts a failed log-in; returns the lock's length in seconds when this failure locked the subject. */
export async function recordFailure(subject: Subject): Promise<number> {
  const { lockSec, maxLockSec } = settings();
  const { failures, lock, lockouts } = limiters(subject, maxLockSec);
  const verdict = await failures.consume(subject.key);
  if (verdict.allowed && verdict.consumed < FAILURES_ALLOWED) return 0;
  // verdict.consumed is 0 when the store is down: fail open, nothing is locked.
  if (verdict.consumed === 0) return 0;
  const { consumed: nth } = await lockouts.consume(subject.key);
  const seconds = Math.min(lockSec * 2 ** Math.max(0, nth - 1), maxLockSec);
  await lock.block(subject.key, seconds);
  await failures.reset(subject.key);
  return seconds;
}

export async function recordSuccess(subject: Subject): Promise<void> {
  await limiters(subject, settings().maxLockSec).failures.reset(subject.key);
}

/** After a password reset: the account's owner gets straight back in. */
export async function clearThrottle(subject: Subject): Promise<void> {
  const { failures, lock, lockouts } = limiters(subject, settings().maxLockSec);
  await Promise.all([failures.reset(subject.key), lock.reset(subject.key), lockouts.reset(subject.key)]);
}

/** Keys held in memory for identifiers no account has (null with Redis): at most MEMORY_MAX_KEYS per limiter. */
export const unknownIdentifierKeys = (): number | null => {
  const { failures, lock, lockouts } = limiters({ key: '', known: false }, settings().maxLockSec);
  const sizes = [failures.storedKeys(), lock.storedKeys(), lockouts.storedKeys()];
  return sizes.includes(null) ? null : (sizes as number[]).reduce((sum, size) => sum + size, 0);
};

// A bcrypt hash (cost 10, as both user stores hash) of a random password nobody kept.
const NO_ACCOUNT_HASH = '$2a$10$QhjTjZ9bWXgjqUudOUk3O.R4YqsvQ/wkfMQX5UwiRIEb5UqhwX0Li';

/**
 * For an identifier no account has: the password check an account costs, so the answer's time does
 * not tell either. (A password bcryptjs must never see, with a lone surrogate, is refused before:
 * src/middlewares/input-rules.ts.)
 */
export async function checkPasswordInVain(compare: (password: string, hash: string) => Promise<boolean>, password: unknown): Promise<void> {
  if (typeof password === 'string') await compare(password, NO_ACCOUNT_HASH).catch(() => false);
}

/** A password log-in of a member or an administrator, as its provider runs it. */
export interface PasswordLogIn<T> {
  realm: Realm;
  /** The account the identifier names; null when no account has it (counted and locked alike). */
  accountId: number | null;
  identifier: string;
  password: unknown;
  /** The account store's password check, run in vain for an identifier no account has. */
  comparePassword: (password: string, hash: string) => Promise<boolean>;
  /** The provider's "wrong identifier or password" failure; no other failure counts. */
  isInvalidCredentials: (error: unknown) => boolean;
  /** Whether the provider's answer signed in. */
  signedIn: (result: T) => boolean;
  logIn: () => T | Promise<T>;
}

const ACCOUNT_NOUN: Record<Realm, string> = { member: 'user', admin: 'administrator' };

/**
 * Runs a password log-in under its account's throttle: refused with 429 while locked, a failure
 * counted (and timed like one of an account when none has the identifier), a success clearing the count.
 */
export async function throttledLogIn<T>(strapi: Core.Strapi, ctx: Parameters<typeof refuse>[0], attempt: PasswordLogIn<T>): Promise<T> {
  const { realm, accountId } = attempt;
  const subject = accountId !== null ? accountSubject(realm, accountId) : unknownSubject(realm, attempt.identifier);
  const locked = await lockedFor(subject);
  if (locked > 0) refuse(ctx, realm === 'admin' ? 'login-lock-admin' : 'login-lock-member', locked, lockedMessage(locked));

  let result: T;
  try {
    result = await attempt.logIn();
  } catch (error) {
    if (attempt.isInvalidCredentials(error)) {
      if (accountId === null) await checkPasswordInVain(attempt.comparePassword, attempt.password);
      const lockedNow = await recordFailure(subject);
      if (lockedNow > 0 && accountId !== null) {
        strapi.log.warn(`[auth] ${ACCOUNT_NOUN[realm]} ${accountId}: log-in locked for ${lockedNow} s after repeated failures`);
      }
    }
    throw error;
  }
  if (attempt.signedIn(result)) await recordSuccess(subject);
  return result;
}
