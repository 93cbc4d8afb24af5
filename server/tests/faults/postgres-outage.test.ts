import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { instanceLogTail, startCluster, type Cluster, type Instance } from '../helpers/instances';
import { RAISED_LIMITS } from '../helpers/app';
import type { Member } from '../helpers/members';
import {
  ownPostgresMissing,
  ownRedisMissing,
  startOwnPostgres,
  startOwnRedis,
  type OwnPostgres,
  type OwnRedis,
} from '../helpers/own-services';

/**
 * PostgreSQL goes away under load and comes back (docs/operations.md, "Outages: database and Redis"):
 * two instances on a private PostgreSQL answer 503 with Retry-After and the house's error envelope while
 * it is away (no crash, no hang), readiness says so, and they serve again without a restart.
 */

const missing = ownPostgresMissing() ?? ownRedisMissing();
if (missing) console.warn(`[postgres-outage.test] skipped: ${missing}`);

const UNAVAILABLE = 'The service is temporarily unavailable. Please try again in a moment.';
/** No answer within this is a hang. */
const ANSWER_BOUND_MS = 5_000;
const AWAY_MS = 4_000;
const RECOVERY_BOUND_MS = 30_000;
const WORKERS = 6;
/** Upper bound on the load's requests, whatever the timing. */
const MAX_REQUESTS = 3_000;

type Outcome = { startedAt: number; endedAt: number; status: number; retryAfter: string | null; body: unknown; op: string };

async function call(instance: Instance, method: string, path: string, options: { body?: unknown; token?: string } = {}) {
  const res = await fetch(instance.baseUrl + path, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    signal: AbortSignal.timeout(ANSWER_BOUND_MS),
  }).catch((error: unknown) => {
    // A refused connection is a process that died: say how, and what it logged last.
    const exited = instance.child.exitCode ?? instance.child.signalCode;
    if (exited === null) throw error;
    throw new Error(`instance ${instance.name} is gone (exit ${exited}) at ${method} ${path}. Log:\n${instanceLogTail(instance)}`, {
      cause: error,
    });
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON; kept as text
  }
  return { status: res.status, body, retryAfter: res.headers.get('retry-after') };
}

const errorMessage = (body: unknown) => (body as { error?: { message?: unknown } } | null)?.error?.message;

describe.skipIf(missing !== null)('PostgreSQL stopped under load, then started again', () => {
  let postgres: OwnPostgres;
  let redis: OwnRedis;
  let cluster: Cluster | undefined;
  let instances: Instance[];
  const members: Member[] = [];

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    redis = await startOwnRedis();
    // The load logs in far more often than the per-address limits allow; they are not under test here.
    cluster = await startCluster(2, RAISED_LIMITS, { postgres: postgres.target, redis: redis.target });
    instances = cluster.instances;
    for (let i = 0; i < 4; i += 1) members.push(await cluster.register(instances[i % 2], `outage_member_${i}`));
  }, 240_000);

  afterAll(async () => {
    try {
      await postgres?.start().catch(() => undefined);
      await cluster?.stop();
    } finally {
      await postgres?.cleanup();
      await redis?.cleanup();
    }
  }, 90_000);

  it('answers 503 with Retry-After while it is away, never hangs or crashes, and recovers without a restart', async () => {
    const outcomes: Outcome[] = [];
    let running = true;
    const deadline = Date.now() + 60_000;
    let sent = 0;

    // One of three member requests: a log-in, a profile read, a profile write.
    const operation = async (n: number) => {
      const instance = instances[n % 2];
      const member = members[n % members.length];
      const kind = n % 3;
      if (kind === 0)
        return {
          op: 'log-in',
          ...(await call(instance, 'POST', '/api/auth/local', { body: { identifier: member.email, password: member.password } })),
        };
      if (kind === 1) return { op: 'profile read', ...(await call(instance, 'GET', '/api/users/me', { token: member.jwt })) };
      return {
        op: 'profile write',
        ...(await call(instance, 'PUT', `/api/users/${member.id}`, {
          token: member.jwt,
          body: { personal_goal_note: `Note ${n}`, goal_weight: 60 + (n % 10) },
        })),
      };
    };

    const worker = async (index: number) => {
      for (let n = index; running && sent < MAX_REQUESTS && Date.now() < deadline; n += WORKERS) {
        sent += 1;
        const startedAt = Date.now();
        try {
          const answer = await operation(n);
          outcomes.push({ startedAt, endedAt: Date.now(), ...answer });
        } catch (error) {
          // An aborted fetch (no answer within the bound) or a refused connection (a dead process).
          outcomes.push({ startedAt, endedAt: Date.now(), status: 0, retryAfter: null, body: String(error), op: 'error' });
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, i) => worker(i)));
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    await sleep(2_000);
    const stoppingAt = Date.now();
    await postgres.stop();
    const stoppedAt = Date.now();

    // While it is away: readiness says so, and a member gets the message, on both instances.
    await sleep(500);
    const readyWhileAway = await Promise.all(instances.map((instance) => call(instance, 'GET', '/api/health/ready')));
    const profileWhileAway = await Promise.all(
      instances.map((instance) => call(instance, 'GET', '/api/users/me', { token: members[0].jwt })),
    );
    await sleep(Math.max(0, AWAY_MS - (Date.now() - stoppedAt)));

    const startingAt = Date.now();
    await postgres.start();
    const startedAt = Date.now();

    // Recovery: both ready, then a profile read succeeding on both.
    let recoveredAt = 0;
    while (Date.now() - startedAt < RECOVERY_BOUND_MS) {
      const checks = await Promise.all(
        instances.map(async (instance) => {
          const ready = await call(instance, 'GET', '/api/health/ready').catch(() => null);
          const read = await call(instance, 'GET', '/api/users/me', { token: members[1].jwt }).catch(() => null);
          return ready?.status === 200 && read?.status === 200;
        }),
      );
      if (checks.every(Boolean)) {
        recoveredAt = Date.now();
        break;
      }
      await sleep(200);
    }
    const afterRecovery = outcomes.length;
    await sleep(2_000);
    running = false;
    await load;

    const awayOutcomes = outcomes.filter((o) => o.startedAt >= stoppedAt && o.endedAt <= startingAt);
    const afterOutcomes = outcomes.slice(afterRecovery).filter((o) => o.startedAt >= recoveredAt);
    const count = (list: Outcome[]) => ({
      total: list.length,
      '2xx': list.filter((o) => o.status >= 200 && o.status < 300).length,
      '503': list.filter((o) => o.status === 503).length,
      other: list.filter((o) => o.status !== 0 && o.status !== 503 && (o.status < 200 || o.status >= 300)).length,
      hangsOrNoAnswer: list.filter((o) => o.status === 0).length,
    });
    const others = outcomes.filter((o) => o.status !== 503 && (o.status < 200 || o.status >= 300)).slice(0, 5);
    console.log(
      `[postgres-outage] stop took ${stoppedAt - stoppingAt} ms, away ${startingAt - stoppedAt} ms, start took ${startedAt - startingAt} ms; ` +
        `recovered ${recoveredAt ? `${recoveredAt - startedAt} ms after PostgreSQL was back` : 'NOT within the bound'}\n` +
        `  all:            ${JSON.stringify(count(outcomes))}\n` +
        `  while away:     ${JSON.stringify(count(awayOutcomes))}\n` +
        `  after recovery: ${JSON.stringify(count(afterOutcomes))}\n` +
        `  slowest answer: ${Math.max(...outcomes.map((o) => o.endedAt - o.startedAt))} ms` +
        (others.length
          ? `\n  first non-2xx/503: ${others.map((o) => `${o.op} ${o.status} ${JSON.stringify(o.body).slice(0, 200)}`).join('\n    ')}`
          : ''),
    );

    // Readiness and a member's request while it was away.
    for (const ready of readyWhileAway) {
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ database: 'failing' });
      expect(Number(ready.retryAfter)).toBeGreaterThan(0);
    }
    for (const answer of profileWhileAway) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(503);
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      expect(answer.body).toEqual({
        data: null,
        error: { status: 503, name: 'ServiceUnavailableError', message: UNAVAILABLE, details: {} },
      });
    }

    // No crash, no hang: every request was answered within the bound, by a live process.
    for (const instance of instances) expect(instance.child.exitCode).toBeNull();
    expect(outcomes.filter((o) => o.status === 0)).toEqual([]);
    // While it was away every answer was the 503, with Retry-After and the message.
    expect(awayOutcomes.length).toBeGreaterThan(0);
    for (const outcome of awayOutcomes) {
      expect({ op: outcome.op, status: outcome.status, message: errorMessage(outcome.body) }).toEqual({
        op: outcome.op,
        status: 503,
        message: UNAVAILABLE,
      });
      expect(Number(outcome.retryAfter)).toBeGreaterThan(0);
    }
    // Around the stop and the start only a success or the 503.
    for (const outcome of outcomes) expect([200, 201, 503]).toContain(outcome.status);
    // Back without a restart.
    expect(recoveredAt).toBeGreaterThan(0);
    expect(afterOutcomes.length).toBeGreaterThan(0);
    expect(afterOutcomes.filter((o) => o.status !== 200)).toEqual([]);
  });
});
