import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Tells a database outage from every other failure, per request: the server answers 503 with
 * Retry-After while PostgreSQL cannot be reached (src/middlewares/database-unavailable.ts), instead of
 * a 500 or, worse, the 401 users-permissions makes of any error while it checks a token (a member
 * would be logged out by an outage).
 *
 * Every connection acquired and every query run goes through two methods of knex's client; their
 * failures are noted on the request that caused them (AsyncLocalStorage), whoever catches them later.
 */

/** Network failures on the way to the database. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's SQLSTATEs for "not now": 08xxx connection exceptions, 57P01 admin_shutdown,
 * 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or recovering), 53300 too_many_connections.
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/**
 * What node-postgres (and knex) say, without a code, when the server goes away under a connection;
 * knex puts the SQL in front ("select ... - Connection terminated unexpectedly").
 */
const PG_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection ended unexpectedly',
  'Connection terminated due to connection timeout',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout expired',
  'Client was closed and is not queryable',
];

type Failure = Error & { code?: unknown; errors?: unknown; cause?: unknown };

/** Whether this error means the database cannot be reached right now (not a bad query). */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 3) return false;
  const failure = error as Failure;
  // knex: no connection from the pool within acquireConnectionTimeout.
  if (failure.name === 'KnexTimeoutError') return true;
  if (typeof failure.code === 'string' && (NETWORK_CODES.has(failure.code) || UNAVAILABLE_SQLSTATE.test(failure.code))) return true;
  if (PG_MESSAGES.some((message) => failure.message.includes(message))) return true;
  // A connect to several addresses fails as one AggregateError.
  if (Array.isArray(failure.errors) && failure.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(failure.cause, depth + 1);
}

interface RequestDatabase {
  /** The first database-unavailable error this request met, caught or not. */
  failure: Error | null;
}

const requests = new AsyncLocalStorage<RequestDatabase>();

/** Runs a request's handling, noting the database outages it meets. */
export function trackRequest<T>(work: () => Promise<T>): { done: Promise<T>; failure: () => Error | null } {
  const state: RequestDatabase = { failure: null };
  return { done: requests.run(state, work), failure: () => state.failure };
}

/** When this process last met the database unreachable (ms since the epoch), 0 if never. */
let lastFailure: { at: number; error: Error } | null = null;

/**
 * The outage this process met within the last `withinMs`, if any. A request that failed with a 500
 * right then most likely failed of it, even when the error it got is only a consequence (knex's
 * "Transaction query already complete" once the transaction's connection died).
 */
export function recentDatabaseFailure(withinMs: number): Error | null {
  return lastFailure && Date.now() - lastFailure.at <= withinMs ? lastFailure.error : null;
}

function note(error: unknown): void {
  if (!isDatabaseUnavailable(error)) return;
  lastFailure = { at: Date.now(), error: error as Error };
  const state = requests.getStore();
  if (state && !state.failure) state.failure = error as Error;
}

type KnexClient = {
  acquireConnection(...args: unknown[]): Promise<unknown>;
  query(...args: unknown[]): Promise<unknown>;
};

const watched = new WeakSet<object>();

/**
 * Wraps acquireConnection and query of the knex client's class so their failures are noted. On the
 * class, not the instance: a transaction's client is made from the class's prototype
 * (knex's makeTxClient), so a wrapper on the instance would miss every query in a transaction.
 */
export function watchDatabaseFailures(client: KnexClient): void {
  const methods = Object.getPrototypeOf(client) as KnexClient;
  if (watched.has(methods)) return;
  watched.add(methods);
  const acquire = methods.acquireConnection;
  const query = methods.query;
  methods.acquireConnection = function acquireConnection(this: KnexClient, ...args: unknown[]) {
    return acquire.apply(this, args).catch((error: unknown) => {
      note(error);
      throw error;
    });
  };
  methods.query = function runQuery(this: KnexClient, ...args: unknown[]) {
    return query.apply(this, args).catch((error: unknown) => {
      note(error);
      throw error;
    });
  };
}

/**
 * A query nobody awaits (one of several a request started, left behind once another failed: seen in Strapi's
 * loading of a member's components) rejects when PostgreSQL goes away, and Node ends a process on an unhandled
 * rejection: an outage the instance answers 503 for would take it down (faults/postgres-outage.test.ts). Such a
 * rejection is the outage, noted and logged; any other stays fatal, as Node makes it. Returns the removal.
 */
export function surviveOutageRejections(log: (message: string) => void): () => void {
  const onRejection = (reason: unknown) => {
    if (!isDatabaseUnavailable(reason)) throw reason;
    note(reason);
    log(`[database] a query no request awaited failed while the database is away: ${(reason as Error).message}`);
  };
  process.on('unhandledRejection', onRejection);
  return () => process.off('unhandledRejection', onRejection);
}
