import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { freshClient, startCluster, type Cluster, type Instance } from '../helpers/instances';
import { PASSWORD, TICKET_BUDGET, bursts, clusterTarget } from '../helpers/guess-bursts';
import { UNCOUNTABLE_MESSAGE } from '../../src/security/login-throttle';
import { TOTP } from 'otpauth';
import {
  ownPostgresMissing,
  ownRedisMissing,
  startOwnPostgres,
  startOwnRedis,
  type OwnPostgres,
  type OwnRedis,
} from '../helpers/own-services';
import { requestFrom } from '../helpers/strapi';

/**
 * Redis goes away and comes back (docs/security.md#rate-limits, docs/instances.md, docs/public-pages.md):
 * while it is away the limits fail open, logged as REDIS UNAVAILABLE, and requests are served without
 * delay; once it is back the limits count again across both instances, and a legal page edited on one
 * instance is served anew by the other at once (publish/subscribe), not after its 30 s cache.
 * Guesses that fail closed (a second factor, a current password) are refused while it is away, and
 * checked again once it is back.
 */

const missing = ownPostgresMissing() ?? ownRedisMissing();
if (missing) console.warn(`[redis-outage.test] skipped: ${missing}`);

/** No answer within this is a hang. */
const ANSWER_BOUND_MS = 5_000;
/** Well under the legal pages' 30 s cache (LEGAL_CACHE_MS): only the published edit explains a new text this soon. */
const LEGAL_EDIT_BOUND_MS = 5_000;
const RECOVERY_BOUND_MS = 20_000;
const ORIGINAL_TEXT = 'The privacy policy as first written.';
const EDITED_TEXT = 'The privacy policy as edited after Redis came back.';

const admin = { firstname: 'Outage', lastname: 'Editor', email: 'outage-editor@carnivo.example', password: 'Outage-Editor-Passw0rd' };

/** A build with only what the prerenderer reads: the shell and a server bundle that renders the privacy policy's text. */
function fakeBuild(dir: string): string {
  fs.mkdirSync(path.join(dir, 'dist'));
  fs.writeFileSync(
    path.join(dir, 'dist', 'index.html'),
    '<html><head><title>Carnivo</title></head><body><div id="root"></div></body></html>',
  );
  fs.mkdirSync(path.join(dir, 'dist-ssr'));
  fs.writeFileSync(
    path.join(dir, 'dist-ssr', 'entry-server.js'),
    `export async function prerender(href, readSingleType) {
  if (href !== '/privacy-policy') return { skipped: 'only the privacy policy in this build' };
  const policy = await readSingleType('/api/privacy-policy');
  return { html: '<main>' + String(policy && policy.Content) + '</main>', head: { title: 'Privacy Policy' }, chunks: [], data: { path: href } };
}
`,
  );
  return path.join(dir, 'dist');
}

async function within<T>(work: Promise<T>, what: string): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const value = await Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ANSWER_BOUND_MS} ms`)), ANSWER_BOUND_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  return { value, ms: Date.now() - started };
}

const ready = async (instance: Instance) => {
  const res = await fetch(`${instance.baseUrl}/api/health/ready`, { signal: AbortSignal.timeout(ANSWER_BOUND_MS) });
  return { status: res.status, body: (await res.json()) as { redis?: string; database?: string } };
};

async function until(check: () => Promise<boolean>, boundMs: number): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started < boundMs) {
    if (await check().catch(() => false)) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return null;
}

/** 14 failed log-ins from one client address, alternating between the instances: statuses and the slowest answer. */
async function failedLogIns(instances: Instance[], label: string) {
  const from = freshClient();
  const statuses: number[] = [];
  const times: number[] = [];
  let slowest = 0;
  for (let i = 0; i < 14; i += 1) {
    const { value, ms } = await within(
      requestFrom(from, instances[i % 2].baseUrl, 'POST', '/api/auth/local', {
        body: { identifier: `nobody-${label}-${i}@example.com`, password: 'x' },
      }),
      `log-in ${i} (${label})`,
    );
    statuses.push(value.status);
    times.push(ms);
    slowest = Math.max(slowest, ms);
  }
  return { statuses, slowest, times };
}

describe.skipIf(missing !== null)('Redis stopped, then started again', () => {
  let postgres: OwnPostgres;
  let redis: OwnRedis;
  let cluster: Cluster | undefined;
  let a: Instance;
  let b: Instance;
  let buildDir: string;

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    redis = await startOwnRedis();
    buildDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-redis-outage-build-'));
    cluster = await startCluster(2, { SPA_DIR: fakeBuild(buildDir) }, { postgres: postgres.target, redis: redis.target });
    [a, b] = cluster.instances;
    const registered = await requestFrom(freshClient(), a.baseUrl, 'POST', '/admin/register-admin', { body: admin });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  }, 240_000);

  afterAll(async () => {
    try {
      await redis?.start().catch(() => undefined);
      await cluster?.stop();
    } finally {
      await postgres?.cleanup();
      await redis?.cleanup();
      if (buildDir) fs.rmSync(buildDir, { recursive: true, force: true });
    }
  }, 90_000);

  async function editPrivacyPolicy(on: Instance, content: string) {
    const login = await requestFrom<{ data: { token: string } }>(freshClient(), on.baseUrl, 'POST', '/admin/login', {
      body: { email: admin.email, password: admin.password },
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const saved = await requestFrom(freshClient(), on.baseUrl, 'PUT', '/content-manager/single-types/api::privacy-policy.privacy-policy', {
      token: login.body.data.token,
      body: { Text: 'Privacy Policy', Content: content },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  }

  const page = async (instance: Instance) => {
    const res = await fetch(`${instance.baseUrl}/privacy-policy`, { signal: AbortSignal.timeout(ANSWER_BOUND_MS) });
    return res.text();
  };

  it('limits fail open (logged) while it is away; after it is back they count across instances and legal edits reach every instance', async () => {
    // Before: a known text, served prerendered by both.
    await editPrivacyPolicy(a, ORIGINAL_TEXT);
    for (const instance of [a, b]) expect(await page(instance)).toContain(ORIGINAL_TEXT);
    for (const instance of [a, b]) expect((await ready(instance)).body.redis).toBe('ok');

    await redis.stop();
    const noticed = await until(
      async () => (await Promise.all([a, b].map(ready))).every((r) => r.body.redis === 'failing'),
      RECOVERY_BOUND_MS,
    );
    // Still ready: Redis failing does not take an instance out.
    const readyWhileAway = await Promise.all([a, b].map(ready));
    const away = await failedLogIns([a, b], 'away');
    const served = await within(page(b), 'a page while Redis is away');
    const logs = [a, b].map((instance) => fs.readFileSync(instance.logFile, 'utf8'));

    const downFor = Date.now();
    await redis.start();
    const back = await until(async () => (await Promise.all([a, b].map(ready))).every((r) => r.body.redis === 'ok'), RECOVERY_BOUND_MS);
    const after = await failedLogIns([a, b], 'back');

    // A legal page cached by B, then edited on A.
    expect(await page(b)).toContain(ORIGINAL_TEXT);
    const editedAt = Date.now();
    await editPrivacyPolicy(a, EDITED_TEXT);
    const seenOnB = await until(async () => (await page(b)).includes(EDITED_TEXT), LEGAL_EDIT_BOUND_MS);
    const seenMs = seenOnB === null ? null : Date.now() - editedAt;

    console.log(
      `[redis-outage] readiness said "failing" ${noticed} ms after the stop; while away: log-ins ${JSON.stringify(away.statuses)} ` +
        `(slowest ${away.slowest} ms, ${away.times.join('/')}), a page in ${served.ms} ms; back: readiness "ok" ${back} ms after the start ` +
        `(${Date.now() - downFor} ms incl. the checks below), log-ins ${JSON.stringify(after.statuses)} (slowest ${after.slowest} ms); ` +
        `the edit on A served by B after ${seenMs === null ? `more than ${LEGAL_EDIT_BOUND_MS}` : seenMs} ms`,
    );

    expect(noticed).not.toBeNull();
    for (const r of readyWhileAway) expect(r).toEqual({ status: 200, body: { status: 'ok', database: 'ok', redis: 'failing' } });
    // Fail open: every attempt answered (no 429, no 5xx), none held up.
    expect(away.statuses).toEqual(Array(14).fill(400));
    expect(away.slowest).toBeLessThan(ANSWER_BOUND_MS);
    for (const log of logs) expect(log).toContain('REDIS UNAVAILABLE');
    for (const instance of [a, b]) expect(instance.child.exitCode).toBeNull();

    // Back: one shared count again (AUTH_RATELIMIT_MAX, 10, per route and client, whichever instance answers).
    expect(back).not.toBeNull();
    expect(after.statuses).toEqual([...Array(10).fill(400), ...Array(4).fill(429)]);
    // And the edit reached B through Redis, long before B's cached copy would have expired.
    expect(seenOnB).not.toBeNull();
  });

  it('while it is away a second factor and a current password are refused (fail closed), a password log-in is not; back, the code works', async () => {
    const target = clusterTarget(cluster!);
    const scenarios = bursts(target);
    const victim = await scenarios.enrolled('outage');
    const plain = await scenarios.register('outageplain');
    const codeNow = () => TOTP.generate({ secret: new TOTP({ secret: victim.secret }).secret, timestamp: Date.now() + 30_000 });
    const post = (instance: Instance, urlPath: string, body: unknown, token?: string) =>
      requestFrom<{ jwt?: string; ticket?: string; error?: { message: string } }>(freshClient(), instance.baseUrl, 'POST', urlPath, {
        body,
        token,
      });
    const ticket = (await post(a, '/api/auth/local', { identifier: victim.email, password: PASSWORD })).body.ticket;
    expect(ticket).toEqual(expect.any(String));
    const stored = () =>
      target.row<{ password: string; enabled_at: unknown; sessions: string; ticket_failures: number | null }>(
        'SELECT u.password, t.enabled_at, (SELECT count(*) FROM member_sessions WHERE member_id = u.id) AS sessions, (SELECT max(failures) FROM two_factor_tickets WHERE user_id = u.id) AS ticket_failures FROM up_users u JOIN two_factors t ON t.user_id = u.id WHERE u.id = ?',
        [victim.id],
      );
    const before = await stored();

    await redis.stop();
    const noticed = await until(
      async () => (await Promise.all([a, b].map(ready))).every((r) => r.body.redis === 'failing'),
      RECOVERY_BOUND_MS,
    );
    expect(noticed).not.toBeNull();
    // More tries than the ticket's attempts, one after the other: nothing is checked, so none is used
    // (the ticket still works once Redis is back).
    const secondSteps = [];
    for (let i = 0; i <= TICKET_BUDGET; i += 1)
      secondSteps.push(
        await within(post(i % 2 ? a : b, '/api/auth/two-factor', { ticket, code: codeNow() }), 'the second step while Redis is away'),
      );
    const refusals = [
      ...secondSteps,
      await within(post(a, '/api/two-factor/disable', { password: PASSWORD, code: codeNow() }, victim.jwt), 'turning two-factor off'),
      await within(
        post(
          b,
          '/api/auth/change-password',
          { currentPassword: PASSWORD, password: 'Outage-Passw0rd-2', passwordConfirmation: 'Outage-Passw0rd-2' },
          victim.jwt,
        ),
        'a password change',
      ),
    ];
    const plainLogIn = await within(post(a, '/api/auth/local', { identifier: plain.email, password: PASSWORD }), 'a password log-in');
    const during = await stored();
    await redis.start();
    const back = await until(async () => (await Promise.all([a, b].map(ready))).every((r) => r.body.redis === 'ok'), RECOVERY_BOUND_MS);

    for (const { value } of refusals) {
      expect(value.status).toBe(429);
      expect(value.body.error?.message).toBe(UNCOUNTABLE_MESSAGE);
      expect(value.headers['retry-after']).toBe('60');
      expect(value.body.jwt).toBeUndefined();
    }
    // Nothing changed: the same password hash, two-factor still on, no session, the ticket's attempts all left.
    expect(during).toEqual(before);
    expect(during?.ticket_failures).toBe(0);
    // The password log-in fails open, as documented: a member can still sign in.
    expect(plainLogIn.value.status).toBe(200);
    expect(plainLogIn.value.body.jwt).toEqual(expect.any(String));

    expect(back).not.toBeNull();
    const signedIn = await post(a, '/api/auth/two-factor', { ticket, code: codeNow() });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.jwt).toEqual(expect.any(String));
  }, 90_000);
});
