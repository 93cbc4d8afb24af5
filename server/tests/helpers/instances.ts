import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { SERVER_DIR, compileServerIfStale } from './compile';
import type { PostgresTarget, RedisTarget } from './own-services';
import { freshSecrets, requestFrom } from './strapi';
import { freePort, portAnswers } from './ports';
import { signUp, type Member, type SignUpOptions } from './members';
import type { ApiError, AuthResponse } from './types';

/**
 * Several real server processes (the built app, as `npm run serve` runs it) on one PostgreSQL
 * database and one Redis, for tests of what instances share. Skips cleanly where a service is absent.
 */

const { Client } = createRequire(import.meta.url)('pg') as typeof import('pg');

export const PG = {
  host: process.env.TEST_PG_HOST ?? '127.0.0.1',
  port: Number(process.env.TEST_PG_PORT ?? 5432),
  user: process.env.TEST_PG_USER ?? 'postgres',
  password: process.env.TEST_PG_PASSWORD ?? '',
  database: process.env.TEST_PG_DATABASE ?? 'test',
};
export const REDIS = { host: '127.0.0.1', port: Number(process.env.TEST_REDIS_PORT ?? 6379) };

/**
 * The Redis database of this test file. Server test files run side by side, each in a process of
 * its own, and a cluster flushes its database, so each file claims one no running file holds: a
 * PostgreSQL advisory lock on its session, which ends (and frees the database) with the process,
 * however it ends. Candidates: TEST_REDIS_DB (default 9) and the next five, wrapping at 16, or the
 * databases TEST_REDIS_DB lists ("12,13"), so runs side by side on one Redis keep apart.
 * (VITEST_POOL_ID cannot tell them: with several projects in one run, two files saw the same one.)
 */
let claimed: Promise<number> | undefined;
export function testRedisDb(): Promise<number> {
  claimed ??= claimRedisDb();
  return claimed;
}

/** The advisory locks' first key: "CaRD" (Carnivo Redis database). */
const REDIS_DB_LOCKS = 0x43615244;

async function claimRedisDb(): Promise<number> {
  const given = (process.env.TEST_REDIS_DB ?? '9').split(',').map(Number);
  if (given.some((db) => !Number.isInteger(db) || db < 0 || db > 15))
    throw new Error(`TEST_REDIS_DB: ${process.env.TEST_REDIS_DB} is not a Redis database 0-15`);
  const candidates = given.length > 1 ? given : Array.from({ length: 6 }, (_, i) => (given[0] + i) % 16);
  const client = new Client({ ...PG, connectionTimeoutMillis: 2000 });
  // Without PostgreSQL the clusters skip; a file alone on Redis takes the first.
  if (
    !(await client.connect().then(
      () => true,
      () => false,
    ))
  )
    return candidates[0];
  for (const db of candidates) {
    const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS held', [
      REDIS_DB_LOCKS,
      REDIS.port * 16 + db,
    ]);
    if (rows[0].held) return db; // the connection stays open: it holds the claim until the process ends
  }
  await client.end();
  throw new Error(`no free Redis database among ${candidates.join(', ')}: more test files side by side than databases`);
}

/** The environment that points a server at `schema` of the test PostgreSQL database (or of `target`). */
export const postgresEnv = (schema: string, target: PostgresTarget = PG) => ({
  DATABASE_CLIENT: 'postgres',
  DATABASE_URL: '',
  DATABASE_HOST: target.host,
  DATABASE_PORT: String(target.port),
  DATABASE_NAME: target.database,
  DATABASE_USERNAME: target.user,
  DATABASE_PASSWORD: target.password,
  DATABASE_SCHEMA: schema,
  DATABASE_POOL_MIN: '0',
});

const STRAPI_BIN = path.join(SERVER_DIR, 'node_modules', '@strapi', 'strapi', 'bin', 'strapi.js');

export async function withPostgres<T>(work: (client: InstanceType<typeof Client>) => Promise<T>, target: PostgresTarget = PG): Promise<T> {
  const client = new Client({ ...target, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Why the multi-instance tests cannot run here, or null when PostgreSQL and Redis both answer. */
export async function missingServices(): Promise<string | null> {
  const pg = await withPostgres(async () => true).catch((error: Error) => error.message);
  if (pg !== true) return `no PostgreSQL at ${PG.host}:${PG.port} (${pg})`;
  if (!(await portAnswers(REDIS.host, REDIS.port, 1000))) return `no Redis at ${REDIS.host}:${REDIS.port}`;
  return null;
}

export interface Instance {
  name: string;
  baseUrl: string;
  child: ChildProcess;
  logFile: string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

let clients = 0;
/**
 * A loopback address no other request of this test file used, so the per-address limits stay out of the way
 * (each file runs in a process of its own, with its own Redis database: addresses never meet across files).
 */
export function freshClient(): string {
  const n = clients++;
  return `127.${10 + Math.floor(n / 62_500)}.${Math.floor(n / 250) % 250}.${(n % 250) + 2}`;
}

/** What most answers are read as; a test that reads more names its own type. */
export type ClusterAnswer = Partial<AuthResponse> & Partial<ApiError>;
export interface ClusterCallOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}
/** The scaffold of a cluster test: requests from fresh client addresses, sign-ups, and SQL in the cluster's schema. */
export interface Cluster {
  instances: Instance[];
  schema: string;
  redisDb: number;
  /** The instances' PUBLIC_DIR (uploads/ below it): the cluster's own unless the test named one. */
  publicDir: string;
  /** Where the instances' outbox provider writes their mail (SMTP_HOST empty), as TestStrapi's outboxDir; read with outbox.ts. */
  outboxDir: string;
  /** A JSON request to the instance from a fresh client address (freshClient). */
  call<T = ClusterAnswer>(
    instance: Instance,
    method: string,
    urlPath: string,
    options?: ClusterCallOptions,
  ): ReturnType<typeof requestFrom<T>>;
  /** Signs a member up on the instance (expecting 200); the password defaults to `<username>-Pass-1`, the e-mail to `<username>@example.com`. */
  register(instance: Instance, username: string, options?: Omit<SignUpOptions, 'from'>): Promise<Member>;
  /** The rows of a query (with `$1` placeholders) run in the cluster's schema. */
  sql<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  /**
   * Starts a stopped (e.g. SIGKILLed) instance again on its port with its environment, in place
   * (`child` and `exited` are replaced); resolves with the milliseconds from spawn to ready.
   */
  restart(instance: Instance): Promise<number>;
  stop(): Promise<void>;
}

async function waitReady(instance: Instance, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (instance.child.exitCode !== null) break;
    try {
      const res = await fetch(`${instance.baseUrl}/api/health/ready`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`instance ${instance.name} did not become ready (exit ${instance.child.exitCode}). Log:\n${instanceLogTail(instance)}`);
}

/** The last lines of an instance's log: what it said before it stopped answering. */
export function instanceLogTail(instance: Instance, lines = 40): string {
  return fs.existsSync(instance.logFile) ? fs.readFileSync(instance.logFile, 'utf8').split('\n').slice(-lines).join('\n') : '';
}

/** Where a cluster keeps its data: the shared test services unless a test brings its own (own-services.ts). */
export interface ClusterTargets {
  postgres?: PostgresTarget;
  redis?: RedisTarget;
}

/**
 * Starts `count` server processes sharing a fresh PostgreSQL schema and a flushed Redis database.
 * The first one starts alone (it creates the tables and seeds), the others after it is ready.
 */
export async function startCluster(count: number, extraEnv: Record<string, string> = {}, targets: ClusterTargets = {}): Promise<Cluster> {
  compileServerIfStale();
  const pgTarget = targets.postgres ?? PG;
  const redisTarget = targets.redis ?? REDIS;
  const schema = `carnivo_multi_${crypto.randomBytes(4).toString('hex')}`;
  await withPostgres((client) => client.query(`CREATE SCHEMA "${schema}"`), pgTarget);
  // A Redis database of its own, emptied, so counters of an earlier run do not leak in.
  const redisDb = await testRedisDb();
  const IORedis = createRequire(path.join(SERVER_DIR, 'package.json'))('ioredis') as typeof import('ioredis').default;
  const redis = new IORedis({ ...redisTarget, db: redisDb });
  await redis.flushdb();
  await redis.quit();

  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-cluster-'));
  fs.mkdirSync(path.join(tempDir, 'public', 'uploads'), { recursive: true });
  const shared = {
    NODE_ENV: 'production',
    PAYMENTS_MODE: 'sandbox',
    STRIPE_SECRET_KEY: '',
    STRIPE_PUBLISHABLE_KEY: '',
    STRIPE_WEBHOOK_SECRET: '',
    STRAPI_TELEMETRY_DISABLED: 'true',
    HOST: '127.0.0.1',
    ...postgresEnv(schema, pgTarget),
    REDIS_URL: `redis://${redisTarget.host}:${redisTarget.port}/${redisDb}`,
    ...freshSecrets(),
    SMTP_HOST: '',
    EMAIL_CONFIRMATION: 'false',
    EMAIL_OUTBOX_DIR: path.join(tempDir, 'outbox'),
    SPA_DIR: path.join(tempDir, 'no-spa'),
    // Uploads of its own: clusters of test files running side by side must not sweep each other's.
    PUBLIC_DIR: path.join(tempDir, 'public'),
    ...extraEnv,
  };

  const instances: Instance[] = [];
  const spawnAt = (port: number, logFile: string) => {
    const log = fs.openSync(logFile, 'a');
    const child = spawn(process.execPath, [STRAPI_BIN, 'start'], {
      cwd: SERVER_DIR,
      // One PUBLIC_URL for all when the test gives one (the site's address, e.g. the passkeys' relying party).
      env: { ...process.env, ...shared, PORT: String(port), PUBLIC_URL: extraEnv.PUBLIC_URL ?? `http://127.0.0.1:${port}` },
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, exited };
  };
  const launch = async (index: number) => {
    const port = await freePort();
    const name = String.fromCharCode(65 + index);
    const logFile = path.join(tempDir, `${name}.log`);
    const instance = { name, baseUrl: `http://127.0.0.1:${port}`, logFile, ...spawnAt(port, logFile) };
    instances.push(instance);
    await waitReady(instance);
  };

  try {
    await launch(0);
    await Promise.all(Array.from({ length: count - 1 }, (_, i) => launch(i + 1)));
  } catch (error) {
    for (const instance of instances) instance.child.kill('SIGKILL');
    throw error;
  }

  const call: Cluster['call'] = (instance, method, urlPath, options = {}) =>
    requestFrom(freshClient(), instance.baseUrl, method, urlPath, options);
  return {
    instances,
    schema,
    redisDb,
    publicDir: shared.PUBLIC_DIR,
    outboxDir: shared.EMAIL_OUTBOX_DIR,
    call,
    register: (instance, username, options) => signUp(instance.baseUrl, username, { ...options, from: freshClient() }),
    sql: (text, values = []) =>
      withPostgres(async (pg) => {
        await pg.query(`SET search_path TO "${schema}"`);
        return (await pg.query(text, values)).rows;
      }, pgTarget),
    async restart(instance) {
      if (instance.child.exitCode === null && instance.child.signalCode === null) throw new Error(`instance ${instance.name} still runs`);
      const started = Date.now();
      Object.assign(instance, spawnAt(Number(new URL(instance.baseUrl).port), instance.logFile));
      await waitReady(instance);
      return Date.now() - started;
    },
    async stop() {
      await Promise.all(
        instances.map(async (instance) => {
          if (instance.child.exitCode === null) instance.child.kill('SIGTERM');
          const timer = setTimeout(() => instance.child.kill('SIGKILL'), 15_000);
          await instance.exited;
          clearTimeout(timer);
        }),
      );
      await withPostgres((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`), pgTarget);
      if (!process.env.KEEP_CLUSTER_LOGS) fs.rmSync(tempDir, { recursive: true, force: true });
    },
  };
}
