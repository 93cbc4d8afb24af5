import type { Core } from '@strapi/strapi';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { readiness } from './readiness';

/**
 * The Prometheus metrics of this process (GET /api/metrics, src/api/metrics). Every label takes a
 * bounded set of values: routes are the matched route's pattern (/api/users/:id), never the raw URL,
 * so made-up URLs cannot grow the number of series.
 */

const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const metricsContentType = registry.contentType;

// Every metric registers with this process's registry, never prom-client's global one.
const counter = <T extends string>(name: string, help: string, labelNames: readonly T[]) =>
  new Counter<T>({ name, help, labelNames, registers: [registry] });
const gauge = <T extends string = never>(name: string, help: string, labelNames: readonly T[] = []) =>
  new Gauge<T>({ name, help, labelNames, registers: [registry] });

const requests = counter(
  'carnivo_http_requests_total',
  'HTTP requests answered, by method, route pattern and status class (2xx, 3xx, 4xx, 5xx).',
  ['method', 'route', 'status_class'],
);

const durations = new Histogram({
  name: 'carnivo_http_request_duration_seconds',
  help: 'Time to answer an HTTP request (until the handlers are done; a streamed body may still be sending), by method and route pattern.',
  labelNames: ['method', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/** The limits that answer 429, as named in the rate-limit refusal counter. */
export type RefusingLimit =
  | 'auth-route'
  | 'auth-address-minute'
  | 'auth-address-day'
  | 'login-lock-member'
  | 'login-lock-admin'
  | 'two-factor-lock'
  | 'guess-budget-unavailable'
  | 'profile-picture-uploads'
  | 'account-exports'
  | 'email-change-member'
  | 'email-change-address';

const refusals = counter('carnivo_rate_limit_refusals_total', 'Requests refused with 429 by a rate limit or log-in lock, by limit.', [
  'limit',
]);

const emailMessages = gauge(
  'carnivo_email_messages',
  'Rows of the e-mail queue (email_messages) by status: queued, sending, sent, failed. No samples while the table does not exist.',
  ['status'],
);

const poolConnections = gauge(
  'carnivo_db_pool_connections',
  'Database pool connections by state: used (lent to a query), free (idle), max (the pool size).',
  ['state'],
);

const poolPendingAcquires = gauge('carnivo_db_pool_pending_acquires', 'Queries waiting for a database connection from the pool.');

const ready = gauge(
  'carnivo_ready',
  '1 when this instance is ready for traffic (as GET /api/health/ready says: database answers, not draining), else 0.',
);

const dependencyUp = gauge(
  'carnivo_dependency_up',
  '1 when the dependency answers, else 0: database, redis (no sample without REDIS_URL).',
  ['dependency'],
);

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const EMAIL_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;

/** Route labels of answers no route matched: the SPA's pages and files, and everything else. */
export type UnroutedLabel = 'spa' | 'unmatched';
const unroutedAnswers = new WeakMap<object, UnroutedLabel>();

/** Files the answer of a request no Strapi route matched under `label` (the SPA's answers). */
export function labelUnroutedAnswer(ctx: object, label: UnroutedLabel): void {
  unroutedAnswers.set(ctx, label);
}

/** Counts one answered request under its route pattern. */
export function recordRequest(ctx: { method: string; _matchedRoute?: unknown }, status: number, seconds: number): void {
  const method = METHODS.has(ctx.method) ? ctx.method : 'OTHER';
  const route = typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : (unroutedAnswers.get(ctx) ?? 'unmatched');
  requests.inc({ method, route, status_class: `${Math.floor(status / 100)}xx` });
  durations.observe({ method, route }, seconds);
}

export function recordRateLimitRefusal(limit: RefusingLimit): void {
  refusals.inc({ limit });
}

interface PoolStats {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  max: number;
}

const isPool = (value: unknown): value is PoolStats =>
  typeof value === 'object' &&
  value !== null &&
  ['numUsed', 'numFree', 'numPendingAcquires'].every((name) => typeof (value as Record<string, unknown>)[name] === 'function');

function readPool(strapi: Core.Strapi): void {
  // knex's tarn pool (strapi.db.connection.client.pool); absent before the first connection and after destroy.
  const pool: unknown = strapi.db?.connection?.client?.pool;
  poolConnections.reset();
  poolPendingAcquires.reset();
  if (!isPool(pool)) return;
  poolConnections.set({ state: 'used' }, pool.numUsed());
  poolConnections.set({ state: 'free' }, pool.numFree());
  if (typeof pool.max === 'number') poolConnections.set({ state: 'max' }, pool.max);
  poolPendingAcquires.set(pool.numPendingAcquires());
}

async function readEmailQueue(strapi: Core.Strapi): Promise<void> {
  const knex = strapi.db.connection;
  const counts = new Map<string, number>();
  try {
    if (!(await knex.schema.hasTable('email_messages'))) {
      emailMessages.reset();
      return;
    }
    const rows: { status: unknown; count: unknown }[] = await knex('email_messages')
      .select('status')
      .count({ count: '*' })
      .groupBy('status');
    for (const row of rows) counts.set(String(row.status), Number(row.count));
  } catch (error) {
    // A scrape while the database is away still answers, without the queue.
    emailMessages.reset();
    strapi.log.warn(`[metrics] could not count the e-mail queue: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  for (const status of EMAIL_STATUSES) emailMessages.set({ status }, counts.get(status) ?? 0);
}

async function readReadiness(strapi: Core.Strapi): Promise<void> {
  const state = await readiness(strapi);
  ready.set(state.ready ? 1 : 0);
  dependencyUp.reset();
  dependencyUp.set({ dependency: 'database' }, state.database === 'ok' ? 1 : 0);
  if (state.redis !== 'not configured') dependencyUp.set({ dependency: 'redis' }, state.redis === 'ok' ? 1 : 0);
}

/** The exposition text of every metric, with the gauges read now. */
export async function renderMetrics(strapi: Core.Strapi): Promise<string> {
  readPool(strapi);
  await Promise.all([readEmailQueue(strapi), readReadiness(strapi)]);
  return registry.metrics();
}
