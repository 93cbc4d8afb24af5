import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Core } from '@strapi/strapi';
import { DIST_DIR, SERVER_DIR, compileServerIfStale } from './compile';

// Strapi's ESM build does not load under Node's ESM resolver (directory imports); use its CJS build.
const require = createRequire(import.meta.url);
const { createStrapi } = require('@strapi/strapi') as typeof import('@strapi/strapi');

export { SERVER_DIR };

export interface TestStrapi {
  strapi: Core.Strapi;
  baseUrl: string;
  /** SQLite file of this instance (undefined for postgres). */
  databaseFile?: string;
  /** Where the outbox provider writes this instance's mail (when SMTP_HOST is empty). */
  outboxDir: string;
  /** Destroys Strapi; deletes the SQLite file unless keepDatabase. */
  stop(options?: { keepDatabase?: boolean }): Promise<void>;
}

export interface BootOptions {
  /** Extra env vars (e.g. SPA_DIR, DATABASE_CLIENT=postgres ...), set before Strapi loads. */
  env?: Record<string, string>;
  /**
   * Reuse an existing SQLite file (e.g. to test a restart); default: a fresh temp file. Its public
   * directory (uploads) and outbox sit next to it unless env names PUBLIC_DIR or EMAIL_OUTBOX_DIR,
   * so test files running side by side never share one.
   */
  databaseFile?: string;
  /** Called before Strapi loads (e.g. to watch what the start-up logs). */
  beforeLoad?: (strapi: Core.Strapi) => void;
}

const secret = () => crypto.randomBytes(24).toString('base64');
/** Secrets of their own for one server: 32 characters each, long enough for production's checks (instances.ts runs them so). */
export const freshSecrets = () => ({
  APP_KEYS: [secret(), secret()].join(','),
  API_TOKEN_SALT: secret(),
  ADMIN_JWT_SECRET: secret(),
  TRANSFER_TOKEN_SALT: secret(),
  JWT_SECRET: secret(),
  ENCRYPTION_KEY: secret(),
});

/** Boots the Strapi app of server/ in-process on 127.0.0.1 with a random port. */
export async function bootStrapi(options: BootOptions = {}): Promise<TestStrapi> {
  const usesSqlite = (options.env?.DATABASE_CLIENT ?? 'sqlite') === 'sqlite';
  const databaseFile = usesSqlite ? (options.databaseFile ?? path.join(os.tmpdir(), `carnivo-test-${crypto.randomUUID()}.db`)) : undefined;
  const filesDir = `${databaseFile ?? path.join(os.tmpdir(), `carnivo-test-${crypto.randomUUID()}`)}-files`;
  fs.mkdirSync(path.join(filesDir, 'public', 'uploads'), { recursive: true });

  Object.assign(process.env, {
    NODE_ENV: 'test',
    // bcrypt's lowest cost: hashing at 10 was the tests' largest single CPU cost (security/password-hash.ts).
    TEST_PASSWORD_HASH_COST: '4',
    STRAPI_TELEMETRY_DISABLED: 'true',
    HOST: '127.0.0.1',
    PORT: '0',
    ...freshSecrets(),
    DATABASE_CLIENT: 'sqlite',
    ...(databaseFile ? { DATABASE_FILENAME: databaseFile } : {}),
    PUBLIC_DIR: path.join(filesDir, 'public'),
    EMAIL_OUTBOX_DIR: path.join(filesDir, 'outbox'),
    ...options.env,
  });

  compileServerIfStale();

  // Strapi.destroy() calls process.removeAllListeners(), which would also drop the
  // test runner's own listeners (IPC with the worker); they are put back in stop().
  const processListeners = process.eventNames().map((event) => [event, process.rawListeners(event)] as const);

  const strapi = createStrapi({ appDir: SERVER_DIR, distDir: DIST_DIR });
  strapi.log.level = process.env.STRAPI_TEST_LOG_LEVEL ?? 'warn';
  options.beforeLoad?.(strapi);
  await strapi.load();
  await new Promise<void>((resolve) => strapi.server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = strapi.server.httpServer.address() as AddressInfo;

  return {
    strapi,
    baseUrl: `http://127.0.0.1:${port}`,
    databaseFile,
    outboxDir: path.resolve(SERVER_DIR, process.env.EMAIL_OUTBOX_DIR!),
    async stop({ keepDatabase = false } = {}) {
      await strapi.destroy();
      for (const [event, listeners] of processListeners) {
        const present = new Set(process.rawListeners(event));
        for (const listener of listeners) {
          if (!present.has(listener)) process.on(event, listener as (...args: unknown[]) => void);
        }
      }
      if (!keepDatabase) {
        for (const suffix of ['', '-journal', '-wal', '-shm']) if (databaseFile) fs.rmSync(databaseFile + suffix, { force: true });
        fs.rmSync(filesDir, { recursive: true, force: true });
      }
    },
  };
}

/** JSON request against a booted instance; returns status, parsed body and headers. */
export async function request<T = unknown>(
  baseUrl: string,
  method: string,
  urlPath: string,
  options: { body?: unknown; token?: string } = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await fetch(baseUrl + urlPath, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON; keep the text
  }
  return { status: res.status, body: body as T, headers: res.headers };
}

/** The Stripe price id of the active monthly plan, as GET /api/subscription-plans lists it. */
export async function monthlyPriceId(baseUrl: string): Promise<string> {
  const plans = await request<{ data: { stripe_price_id: string; is_active: boolean; duration: string }[] }>(
    baseUrl,
    'GET',
    '/api/subscription-plans',
  );
  return plans.body.data.find((plan) => plan.is_active && plan.duration === 'month')!.stripe_price_id;
}

/**
 * Like request(), but from another client address on the loopback range (e.g. '127.0.0.23'), so
 * per-address limits see distinct clients without trusting a proxy header.
 */
export function requestFrom<T = unknown>(
  localAddress: string,
  baseUrl: string,
  method: string,
  urlPath: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: T; headers: http.IncomingHttpHeaders }> {
  const url = new URL(urlPath, baseUrl);
  const payload = options.body !== undefined ? JSON.stringify(options.body) : undefined;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress,
        agent: false,
        headers: {
          ...(payload !== undefined ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(payload)) } : {}),
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON; keep the text
          }
          resolve({ status: res.statusCode ?? 0, body: body as T, headers: res.headers });
        });
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}
