import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createRequire } from 'node:module';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { requestFrom } from '../helpers/strapi';
import { boot, type TestApp } from '../helpers/app';
import { MESSAGE, jsonLogFormat, logFormatName, prettyLogFormat } from '../../src/operations/log-format';
import { productionProblems } from '../../src/security/production-safety';

/**
 * Operators can see inside (docs/operations.md "Logs and request ids", "Metrics and alerts"): every
 * answer carries a request id, every log line of a request is one JSON object with it, and
 * GET /api/metrics (behind METRICS_TOKEN) counts requests by route pattern, refusals, the e-mail
 * queue and the database pool, with a bounded number of series.
 */

const require = createRequire(import.meta.url);
const winston = require('winston') as typeof import('winston');

const METRICS_TOKEN = crypto.randomBytes(24).toString('hex');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const AUTH_RATELIMIT_MAX = 3;

let app: TestApp;
let tmp: string;
const logLines: string[] = [];

type Headers = Record<string, string>;
/** A request with raw headers from the loopback address `from` (default 127.0.0.1). */
const send = (method: string, urlPath: string, options: { headers?: Headers; body?: unknown; token?: string; from?: string } = {}) =>
  requestFrom<unknown>(options.from ?? '127.0.0.1', app.baseUrl, method, urlPath, options);
const idOf = (res: { headers: Record<string, string | string[] | undefined> }) => res.headers['x-request-id'];
/** GET /api/metrics with `Authorization: Bearer <token>`, or without Authorization for null. */
const scrape = (token: string | null = METRICS_TOKEN) =>
  send('GET', '/api/metrics', { headers: token === null ? {} : { Authorization: `Bearer ${token}` } });

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
/** The samples of a Prometheus text exposition. */
function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key, value]));
      return { name: match[1], labels, value: Number(match[3]) };
    });
}
const find = (all: Sample[], name: string, labels: Record<string, string> = {}) =>
  all.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
const valueOf = (all: Sample[], name: string, labels: Record<string, string>) =>
  find(all, name, labels).reduce((sum, sample) => sum + sample.value, 0);
async function metrics(): Promise<Sample[]> {
  const res = await scrape();
  expect(res.status).toBe(200);
  return samples(String(res.body));
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-observe-'));
  fs.writeFileSync(path.join(tmp, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  app = await boot({
    env: { SPA_DIR: tmp, LOG_FORMAT: 'json', METRICS_TOKEN, AUTH_RATELIMIT_MAX: String(AUTH_RATELIMIT_MAX) },
  });
  // What the server's own transport writes, line by line, through the configured format (the console's kept quiet).
  app.strapi.log.level = 'http';
  for (const transport of app.strapi.log.transports) transport.silent = true;
  app.strapi.log.add(
    new winston.transports.Stream({
      stream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
          done();
        },
      }),
    }),
  );
});

afterAll(async () => {
  await app?.stop();
  delete process.env.METRICS_TOKEN;
  delete process.env.LOG_FORMAT;
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('request ids', () => {
  it('generates a UUID when the request has none, on the API, the SPA, uploads and errors alike', async () => {
    const answers = await Promise.all([
      send('GET', '/api/health/live'),
      send('GET', '/features'),
      send('GET', '/uploads/no-such-file.png'),
      send('GET', '/api/no-such-route'),
      scrape('wrong'),
    ]);
    // An unreadable body, refused before any route (src/middlewares/body-errors.ts).
    const malformed = await fetch(`${app.baseUrl}/api/no-such-route`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"unfinished',
    });
    expect([...answers.map((res) => res.status), malformed.status]).toEqual([200, 200, 404, 404, 401, 400]);
    const ids = [...answers.map(idOf), malformed.headers.get('x-request-id')];
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('echoes a sane X-Request-Id', async () => {
    for (const given of ['abc-123', 'lb.7f3a_9', 'x'.repeat(64)]) {
      const res = await send('GET', '/api/health/live', { headers: { 'X-Request-Id': given } });
      expect(idOf(res)).toBe(given);
    }
    const spa = await send('GET', '/about', { headers: { 'X-Request-Id': 'spa-page-1' } });
    expect([spa.status, idOf(spa)]).toEqual([200, 'spa-page-1']);
  });

  it('replaces one that is not a plain token (no forged log lines)', async () => {
    for (const given of ['x'.repeat(65), 'has space', '{"level":"error","message":"forged"}', 'a/b', 'semi;colon', 'tab\there']) {
      const res = await send('GET', '/api/health/live', { headers: { 'X-Request-Id': given } });
      expect(idOf(res)).toMatch(UUID);
    }
  });
});

describe('logs', () => {
  it('writes every line as one JSON object with time, level and message', () => {
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      expect(typeof parsed.time).toBe('string');
      expect(Number.isNaN(Date.parse(String(parsed.time)))).toBe(false);
      expect(typeof parsed.level).toBe('string');
      expect(typeof parsed.message).toBe('string');
    }
  });

  it('carries the request id on every line of a request: its request line and what its handler logs', async () => {
    const registered = await app.register(`observe${crypto.randomBytes(4).toString('hex')}`);

    const requestId = `delete-${crypto.randomBytes(6).toString('hex')}`;
    const deleted = await send('DELETE', '/api/users-permissions/users/delete-account', {
      token: registered.jwt,
      headers: { 'X-Request-Id': requestId },
    });
    expect(deleted.status).toBe(200);

    const lines = logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.requestId === requestId);
    // The handler's own line (src/api/account/services/account-deletion.ts) and the request line.
    expect(lines.map((line) => line.message)).toEqual([
      `[account] deleted user ${registered.id} and 0 file(s)`,
      expect.stringMatching(/^DELETE \/api\/users-permissions\/users\/delete-account 200 \(\d+ ms\)$/),
    ]);
    expect(lines[1]).toMatchObject({
      level: 'http',
      method: 'DELETE',
      path: '/api/users-permissions/users/delete-account',
      status: 200,
      durationMs: expect.any(Number),
    });
    // Lines outside a request have none.
    app.strapi.log.info('outside any request');
    const outside = JSON.parse(logLines.at(-1) ?? '{}') as Record<string, unknown>;
    expect(outside).toMatchObject({ message: 'outside any request', level: 'info' });
    expect(outside).not.toHaveProperty('requestId');
  });

  it('logs an error no middleware answered (Koa answers it) as a JSON line with its request id', () => {
    const req = new http.IncomingMessage(new net.Socket());
    Object.assign(req, { method: 'GET', url: '/escaped?token=x' });
    const ctx = app.strapi.server.app.createContext(req, new http.ServerResponse(req));
    ctx.set('X-Request-Id', 'escaped-1');
    app.strapi.server.app.emit('error', new Error('the stream broke'), ctx);
    expect(JSON.parse(logLines.at(-1) ?? '{}')).toMatchObject({
      level: 'error',
      message: 'GET /escaped: the stream broke',
      requestId: 'escaped-1',
      path: '/escaped',
      stack: expect.stringContaining('the stream broke'),
    });
  });

  it('logs the path without its query (which may hold codes)', async () => {
    const requestId = `query-${crypto.randomBytes(6).toString('hex')}`;
    await send('GET', '/reset-password?code=secret-reset-code', { headers: { 'X-Request-Id': requestId } });
    const line = logLines.map((text) => JSON.parse(text) as Record<string, unknown>).find((parsed) => parsed.requestId === requestId);
    expect(line).toMatchObject({ path: '/reset-password', status: 200 });
    expect(JSON.stringify(line)).not.toContain('secret-reset-code');
  });

  it('formats: JSON in production, readable lines otherwise, a bad LOG_FORMAT refused', () => {
    expect(logFormatName({ NODE_ENV: 'production' })).toBe('json');
    expect(logFormatName({ NODE_ENV: 'development' })).toBe('pretty');
    expect(logFormatName({ NODE_ENV: 'production', LOG_FORMAT: 'pretty' })).toBe('pretty');
    expect(() => logFormatName({ LOG_FORMAT: 'xml' })).toThrow('LOG_FORMAT must be "json" or "pretty", not "xml"');

    const pretty = prettyLogFormat(false).transform({ level: 'warn', message: 'careful', requestId: 'r-1' })[MESSAGE];
    expect(pretty).toMatch(/^\[\d{4}-\d{2}-\d{2} [\d:.]+\] warn: careful \[r-1\]$/);
    const error = Object.assign(new Error('it broke'), { level: 'error' });
    const json = JSON.parse(jsonLogFormat.transform(error)[MESSAGE] ?? '') as Record<string, unknown>;
    expect(json).toMatchObject({ level: 'error', message: 'it broke', stack: expect.stringContaining('it broke') });
  });
});

describe('metrics', () => {
  it('are off (404, as an unknown API route) without METRICS_TOKEN', async () => {
    const unknown = await send('GET', '/api/no-such-route');
    delete process.env.METRICS_TOKEN;
    try {
      const res = await scrape();
      expect(res.status).toBe(404);
      expect(res.body).toEqual(unknown.body);
    } finally {
      process.env.METRICS_TOKEN = METRICS_TOKEN;
    }
  });

  it('refuse a missing or wrong token', async () => {
    for (const res of [
      await scrape(null),
      await scrape('wrong'),
      await scrape(`${METRICS_TOKEN}x`),
      await scrape(METRICS_TOKEN.slice(1)),
      await send('GET', '/api/metrics', { headers: { Authorization: METRICS_TOKEN } }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(String(JSON.stringify(res.body))).not.toContain('carnivo_');
    }
  });

  it('count a request under its route pattern, not its URL', async () => {
    const before = await metrics();
    const id = 900_000 + crypto.randomInt(1000);
    const res = await send('GET', `/api/users/${id}`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    const after = await metrics();
    const labels = { method: 'GET', route: '/api/users/:id', status_class: `${Math.floor(res.status / 100)}xx` };
    expect(valueOf(after, 'carnivo_http_requests_total', labels) - valueOf(before, 'carnivo_http_requests_total', labels)).toBe(1);
    expect(find(after, 'carnivo_http_requests_total').some((sample) => sample.labels.route.includes(String(id)))).toBe(false);
    expect(valueOf(after, 'carnivo_http_request_duration_seconds_count', { method: 'GET', route: '/api/users/:id' })).toBeGreaterThan(0);
    // Every answer is counted, the scrapes too.
    expect(valueOf(after, 'carnivo_http_requests_total', { route: '/api/metrics', status_class: '2xx' })).toBeGreaterThan(0);
  });

  it('count rate-limit refusals by limit', async () => {
    const before = valueOf(await metrics(), 'carnivo_rate_limit_refusals_total', { limit: 'auth-route' });
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= AUTH_RATELIMIT_MAX; attempt += 1) {
      const res = await send('POST', '/api/auth/local', {
        from: '127.0.0.77',
        body: { identifier: 'nobody@example.com', password: 'wrong-password' },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array<number>(AUTH_RATELIMIT_MAX).fill(400), 429]);
    const after = await metrics();
    expect(valueOf(after, 'carnivo_rate_limit_refusals_total', { limit: 'auth-route' }) - before).toBe(1);
    expect(valueOf(after, 'carnivo_http_requests_total', { route: '/api/auth/local', status_class: '4xx' })).toBeGreaterThanOrEqual(
      AUTH_RATELIMIT_MAX + 1,
    );
  });

  it('show the database pool and readiness', async () => {
    const all = await metrics();
    for (const state of ['used', 'free', 'max']) expect(find(all, 'carnivo_db_pool_connections', { state })).toHaveLength(1);
    expect(find(all, 'carnivo_db_pool_pending_acquires')).toHaveLength(1);
    expect(valueOf(all, 'carnivo_db_pool_connections', { state: 'max' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(all, 'carnivo_ready', {})).toBe(1);
    expect(valueOf(all, 'carnivo_dependency_up', { dependency: 'database' })).toBe(1);
    // The default process metrics.
    expect(find(all, 'process_cpu_user_seconds_total')).toHaveLength(1);
    expect(find(all, 'nodejs_eventloop_lag_seconds')).toHaveLength(1);
  });

  it('count the e-mail queue by status while its table exists, and report nothing for it before', async () => {
    const knex = app.strapi.db.connection;
    const existed = await knex.schema.hasTable('email_messages');
    if (existed) {
      // The durable e-mail queue is merged: its rows as the database counts them.
      const all = await metrics();
      for (const status of ['queued', 'sending', 'sent', 'failed']) {
        const [{ count }] = await knex('email_messages').where({ status }).count({ count: '*' });
        expect(valueOf(all, 'carnivo_email_messages', { status })).toBe(Number(count));
      }
      return;
    }
    console.warn('[observability] no email_messages table (the durable e-mail queue is not merged here): the test makes a minimal one');
    expect(find(await metrics(), 'carnivo_email_messages')).toHaveLength(0);
    await knex.schema.createTable('email_messages', (table) => {
      table.increments('id');
      table.string('status').notNullable();
    });
    try {
      await knex('email_messages').insert(
        ['queued', 'queued', 'queued', 'sending', 'failed', 'failed', 'sent'].map((status) => ({ status })),
      );
      const all = await metrics();
      expect(Object.fromEntries(find(all, 'carnivo_email_messages').map((sample) => [sample.labels.status, sample.value]))).toEqual({
        queued: 3,
        sending: 1,
        sent: 1,
        failed: 2,
      });
    } finally {
      await knex.schema.dropTable('email_messages');
    }
    expect(find(await metrics(), 'carnivo_email_messages')).toHaveLength(0);
  });

  it.each([
    ['unknown API routes', (i: number) => `/api/no-such-thing-${i}/${crypto.randomUUID()}`],
    ['SPA pages', (i: number) => `/made-up-page-${i}?q=${crypto.randomUUID()}`],
    ['missing uploads', (i: number) => `/uploads/missing-${i}-${crypto.randomUUID()}.png`],
    ['unknown admin paths', (i: number) => `/admin/no-such-${i}`],
  ])('keep a bounded number of series: 50 distinct %s add at most one', async (_kind, urlOf) => {
    const all = await metrics();
    const before = {
      counter: find(all, 'carnivo_http_requests_total').length,
      histogram: find(all, 'carnivo_http_request_duration_seconds_count').length,
      answers: valueOf(all, 'carnivo_http_requests_total', { method: 'GET' }),
    };
    const statuses = new Set<number>();
    for (let i = 0; i < 50; i += 1) statuses.add((await send('GET', urlOf(i))).status);
    const after = await metrics();
    // One label set at most: a counter series and its histogram's.
    expect(statuses.size).toBe(1);
    // All 50 counted (and the scrape before them), under one label set.
    expect(valueOf(after, 'carnivo_http_requests_total', { method: 'GET' }) - before.answers).toBe(51);
    expect(find(after, 'carnivo_http_requests_total').length - before.counter).toBeLessThanOrEqual(1);
    expect(find(after, 'carnivo_http_request_duration_seconds_count').length - before.histogram).toBeLessThanOrEqual(1);
  });
});

describe('production safety', () => {
  it('refuses a guessable METRICS_TOKEN, accepts none or a long one', () => {
    const secrets = Object.fromEntries(
      ['APP_KEYS', 'API_TOKEN_SALT', 'ADMIN_JWT_SECRET', 'TRANSFER_TOKEN_SALT', 'JWT_SECRET', 'ENCRYPTION_KEY'].map((name) => [
        name,
        crypto.randomBytes(24).toString('hex'),
      ]),
    );
    const payments = { mode: 'sandbox' };
    expect(productionProblems({ ...secrets }, payments)).toEqual([]);
    expect(productionProblems({ ...secrets, METRICS_TOKEN }, payments)).toEqual([]);
    expect(productionProblems({ ...secrets, METRICS_TOKEN: 'changeme' }, payments)).toEqual([
      'METRICS_TOKEN is a placeholder value: set it to a long random value, or leave it unset to turn /api/metrics off.',
    ]);
  });
});
