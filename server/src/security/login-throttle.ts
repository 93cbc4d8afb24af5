import type { Core } from '@strapi/strapi';
import { guessStore, type GuessRules } from './guess-store';
import { refuse } from './auth-rate-limit';

/**
 * Per-account throttling of failed password log-ins, members' and administrators' alike, whatever
 * the client address (password spraying from many addresses counts against the account, not the
 * address): after FAILURES_ALLOWED failures within FAILURE_WINDOW_SEC the account's log-in is locked
 * for the lock length (BASE_LOCK_SEC); each further lockout within a day doubles it, up to the
 * maximum (MAX_LOCK_SEC). A successful log-in clears the failures; a password reset clears
 * everything. Counters are shared by all instances through Redis when REDIS_URL is set.
 *
 * Every attempt is counted BEFORE its secret is checked (countedGuess, src/security/guess-store.ts),
 * so a burst of concurrent guesses gets no more checks than the budget. The same budget counts the
 * member's current password on every route that asks for it (src/security/guess-budget.ts); the
 * second factor has a budget of its own under the same rules (api/two-factor).
 *
 * The answers must not tell whether an account exists, so an identifier no account has is
 * throttled exactly like an account, under its normalised form. Its counters live in a memory store of
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

const rules = (): GuessRules => ({ allowed: FAILURES_ALLOWED, windowSec: FAILURE_WINDOW_SEC, ...settings() });
const storeOf = (subject: Subject) => guessStore(subject.known ? 'accounts' : 'unknown-identifiers');

/** What checking a secret found: right, wrong, or nothing checked (a malformed request): the attempt is given back. */
export type GuessVerdict = 'right' | 'wrong' | 'unchecked';

/** How a budget refuses, and what it does when its store (Redis) cannot be reached. */
export type GuessPolicy = {
  /** Throws the refusal while the subject is locked. */
  refuseLocked: (retryAfterSec: number) => never;
  /** Called when this attempt used the last failure allowed and locked the subject. */
  onLock?: (seconds: number) => void;
} & (
  | /** Checked uncounted (the password log-in: members can still sign in). */ { whenUncountable: 'open' }
  | /** Refused unchecked (second factors, current passwords). */ { whenUncountable: 'closed'; refuseUncountable: () => never }
);

/**
 * Count first, then check: one attempt is taken from the subject's budget atomically (refused while
 * locked), then `check` runs; its outcome (`judge`, from its value or the error it threw) settles the
 * attempt: a right guess clears the failures, a wrong one stays counted, an unchecked one is given back.
 */
export async function countedGuess<T>(
  subject: Subject,
  policy: GuessPolicy,
  check: () => Promise<T>,
  judge: (outcome: { ok: true; value: T } | { ok: false; error: unknown }) => GuessVerdict,
): Promise<T> {
  const store = storeOf(subject);
  const reserved = await store.reserve(subject.key, rules());
  if (reserved.kind === 'locked') policy.refuseLocked(reserved.retryAfterSec);
  if (reserved.kind === 'unavailable' && policy.whenUncountable === 'closed') policy.refuseUncountable();
  const lockedSec = reserved.kind === 'counted' ? reserved.lockedSec : 0;
  const settle = async (verdict: GuessVerdict) => {
    if (reserved.kind !== 'counted') return;
    if (verdict === 'right') await store.right(subject.key, lockedSec);
    else if (verdict === 'unchecked') await store.giveBack(subject.key, lockedSec, rules());
    else if (lockedSec > 0) policy.onLock?.(lockedSec);
  };
  let value: T;
  try {
    value = await check();
  } catch (error) {
    await settle(judge({ ok: false, error }));
    throw error;
  }
  await settle(judge({ ok: true, value }));
  return value;
}

/** Seconds the subject stays locked, 0 when it is not. */
export const lockedFor = (subject: Subject): Promise<number> => storeOf(subject).lockedFor(subject.key);

/** Counts one failure (as a wrong guess does); returns the lock's length when it locked the subject. Store down: 0. */
export async function recordFailure(subject: Subject): Promise<number> {
  const reserved = await storeOf(subject).reserve(subject.key, rules());
  return reserved.kind === 'counted' ? reserved.lockedSec : 0;
}

export async function recordSuccess(subject: Subject): Promise<void> {
  await storeOf(subject).right(subject.key, 0);
}

/** After a password reset: the account's owner gets straight back in. */
export async function clearThrottle(subject: Subject): Promise<void> {
  await storeOf(subject).clear(subject.key);
}

/** Keys held in memory for identifiers no account has (null with Redis): at most MEMORY_MAX_KEYS per counter. */
export const unknownIdentifierKeys = (): number | null => storeOf({ key: '', known: false }).storedKeys();

// A bcrypt hash (cost 10: PASSWORD_HASH_COST, as both user stores hash) of a random password nobody kept.
export const NO_ACCOUNT_HASH = '$2a$10$QhjTjZ9bWXgjqUudOUk3O.R4YqsvQ/wkfMQX5UwiRIEb5UqhwX0Li';

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
 * Runs a password log-in under its account's throttle: the attempt is counted before the password is
 * checked (refused with 429 while locked), a failure stays counted (and is timed like one of an
 * account when none has the identifier), a success clears the count. While Redis cannot be reached
 * the log-in fails open (checked, uncounted, logged): members can still sign in.
 */
export async function throttledLogIn<T>(strapi: Core.Strapi, ctx: Parameters<typeof refuse>[0], attempt: PasswordLogIn<T>): Promise<T> {
  const { realm, accountId } = attempt;
  const subject = accountId !== null ? accountSubject(realm, accountId) : unknownSubject(realm, attempt.identifier);
  const policy: GuessPolicy = {
    refuseLocked: (seconds) => refuse(ctx, realm === 'admin' ? 'login-lock-admin' : 'login-lock-member', seconds, lockedMessage(seconds)),
    whenUncountable: 'open',
    onLock: (seconds) => {
      if (accountId !== null)
        strapi.log.warn(`[auth] ${ACCOUNT_NOUN[realm]} ${accountId}: log-in locked for ${seconds} s after repeated failures`);
    },
  };
  return countedGuess(
    subject,
    policy,
    async () => {
      try {
        return await attempt.logIn();
      } catch (error) {
        if (accountId === null && attempt.isInvalidCredentials(error)) await checkPasswordInVain(attempt.comparePassword, attempt.password);
        throw error;
      }
    },
    (outcome) => {
      if (!outcome.ok) return attempt.isInvalidCredentials(outcome.error) ? 'wrong' : 'unchecked';
      return attempt.signedIn(outcome.value) ? 'right' : 'unchecked';
    },
  );
}

/** The answer while a budget that fails closed cannot count (Redis unreachable). */
export const UNCOUNTABLE_MESSAGE = 'Your password or code cannot be checked right now. Please try again in a minute.';
const UNCOUNTABLE_RETRY_SEC = 60;

/** 429 with UNCOUNTABLE_MESSAGE: a second factor or a current password is not checked uncounted. */
export const refuseUncountable = (ctx: Parameters<typeof refuse>[0]): never =>
  refuse(ctx, 'guess-budget-unavailable', UNCOUNTABLE_RETRY_SEC, UNCOUNTABLE_MESSAGE);
