// `npm run bench`: throughput of the profile read, and a lost-update check of concurrent profile
// writes across two instances (docs/instances.md). Runs against the
// build (server/dist, recompiled incrementally from the sources like the tests do, and dist/), only on
// loopback addresses, and stops by itself within a few minutes.
//
// 1. Throughput: autocannon against one instance, with a member's JWT, of
//    GET /api/users/me?populate=* and GET /api/users/me; requests/s, latency p50/p99 and their ratio.
// 2. Two instances (server/tests/helpers/instances.ts: two `strapi start` processes on a fresh
//    PostgreSQL schema and one Redis): 40 members registered, then every member writes three profile
//    sections (goals, bmi, diet) concurrently, several rounds each, requests alternating between the
//    instances; then every profile is re-read on both instances. Prints "errors: N, lost updates: N"
//    and exits 1 when either is not 0.
// Without PostgreSQL or Redis part 2 is skipped (the reason is printed) and part 1 runs on one
// instance on SQLite.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5); // per autocannon run, after a 1 s warm-up
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const MEMBERS = 40;
const ROUNDS = 6; // writes per member and profile section
const GIVE_UP_MS = 5 * 60_000;
// Client addresses (all loopback): one per member, so the per-address registration limits
// (10 a minute, 50 a day) are never reached and the limits keep their defaults.
const THROUGHPUT_MEMBER_ADDRESS = '127.0.0.9';
const memberAddress = (m) => `127.0.0.${10 + m}`;

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
const log = (line) => console.log(`[bench ${elapsed()}] ${line}`);

for (const file of ['dist/index.html', 'server/dist/build/index.html']) {
  if (!fs.existsSync(path.join(ROOT, file))) {
    console.error(`bench: ${file} is missing; run \`npm run build\` first.`);
    process.exit(2);
  }
}

// The tests' TypeScript helpers, loaded through Vite's module runner (Node 20 cannot import .ts).
const { runnerImport } = await import('vite');
const load = async (file) => (await runnerImport(path.join(ROOT, file), { configFile: false, logLevel: 'error' })).module;
const { missingServices, startCluster } = await load('server/tests/helpers/instances.ts');
const { compileServer } = await load('server/tests/helpers/compile.ts');
const { requestFrom } = await load('server/tests/helpers/strapi.ts');

/** Whatever runs (a cluster or one process) and how to stop it; stopped on every way out. */
let running = null;
let stopping = null;
const stopRunning = () =>
  (stopping ??= running ? running.stop().catch((error) => console.error(`bench: stopping: ${error.message}`)) : Promise.resolve());
const giveUp = setTimeout(async () => {
  console.error(`bench: gave up after ${GIVE_UP_MS / 1000} s`);
  await Promise.race([stopRunning(), new Promise((resolve) => setTimeout(resolve, 20_000))]);
  process.exit(1);
}, GIVE_UP_MS);
giveUp.unref();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    await stopRunning();
    process.exit(130);
  });
}

/** One JSON request from a loopback client address; never throws (status 0 = network error). */
async function call(from, baseUrl, method, urlPath, options = {}) {
  const begin = performance.now();
  try {
    const res = await Promise.race([
      requestFrom(from, baseUrl, method, urlPath, options),
      new Promise((_, reject) => setTimeout(() => reject(new Error('no answer within 30 s')), 30_000).unref()),
    ]);
    return { status: res.status, body: res.body, ms: performance.now() - begin };
  } catch (error) {
    return { status: 0, body: { error: { message: error.message } }, ms: performance.now() - begin };
  }
}
const ok = (res) => res.status >= 200 && res.status < 300;
const describeFailure = (res) => `${res.status || 'network error'} ${res.body?.error?.message ?? String(res.body).slice(0, 120)}`;

async function register(instance, from, name) {
  const password = `${name}-Pass-1`;
  const res = await call(from, instance.baseUrl, 'POST', '/api/auth/local/register', {
    body: { username: name, email: `${name}@example.com`, password },
  });
  return { res, id: res.body?.user?.id, jwt: res.body?.jwt, from };
}

const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0);
const fmt = (n, digits = 0) => n.toFixed(digits);

// ---- part 1: throughput ----------------------------------------------------------------------

async function cannon(instance, jwt, urlPath) {
  const result = await autocannon({
    url: instance.baseUrl + urlPath,
    connections: CONNECTIONS,
    duration: SECONDS,
    warmup: { connections: CONNECTIONS, duration: 1 },
    timeout: 10,
    headers: { authorization: `Bearer ${jwt}` },
  });
  return {
    path: urlPath,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    failed: result.non2xx + result.errors,
    statuses: Object.keys(result.statusCodeStats ?? {}).join(', '),
  };
}

/** Returns the number of failed requests (non-2xx or connection errors). */
async function throughput(instance, where) {
  const member = await register(instance, THROUGHPUT_MEMBER_ADDRESS, 'bench_reader');
  if (!ok(member.res)) throw new Error(`registering the throughput member failed: ${describeFailure(member.res)}`);
  // A filled-in profile, so populate=* has a component and relations to load.
  const profile = await call(member.from, instance.baseUrl, 'PUT', `/api/users/${member.id}`, {
    token: member.jwt,
    body: {
      bmi: { height: 180, currentWeight: 82.5, Gender: 'Male', date_of_birth: '1985-06-15', idealBmiWeight: 75 },
      diet_preference: 'Ketovore',
      ingredients: [1, 2, 3, 4],
      goal_weight: 78,
      goal_reminder: 'weekly',
      personal_goal_note: 'Benchmark member',
    },
  });
  if (!ok(profile)) throw new Error(`filling in the throughput member's profile failed: ${describeFailure(profile)}`);

  log(`throughput on instance ${instance.name} (${where}): ${CONNECTIONS} connections, ${SECONDS} s per run after a 1 s warm-up`);
  const full = await cannon(instance, member.jwt, '/api/users/me?populate=*');
  const plain = await cannon(instance, member.jwt, '/api/users/me');
  console.log('');
  console.log(`Throughput, instance ${instance.name} on ${where}, one member's JWT, ${CONNECTIONS} connections, ${SECONDS} s each:`);
  for (const run of [full, plain]) {
    console.log(
      `  GET ${run.path.padEnd(26)} ${fmt(run.rps).padStart(6)} requests/s   latency p50 ${run.p50} ms, p99 ${run.p99} ms` +
        `   (${run.total} requests${run.failed ? `, ${run.failed} FAILED: status ${run.statuses}` : ''})`,
    );
  }
  console.log(
    `  ratio populate=* / plain: ${fmt(full.rps / plain.rps, 2)} (plain answers ${fmt(plain.rps / full.rps, 2)}x as many requests/s)`,
  );
  console.log('');
  return full.failed + plain.failed;
}

// ---- part 2: concurrent writes on two instances ------------------------------------------------

/**
 * The profile sections each member writes, each as an independent chain of rounds: what round r of
 * member m sends, and the comparable value of that section in a sent body or a stored profile.
 */
const SECTIONS = {
  goals: {
    body: (m, r) => ({
      goal_weight: 50 + m + r / 2,
      goal_reminder: r % 2 ? 'weekly' : 'daily',
      personal_goal_note: `member ${m} round ${r}`,
    }),
    value: (p) => JSON.stringify([Number(p.goal_weight), p.goal_reminder, p.personal_goal_note]),
  },
  bmi: {
    body: (m, r) => ({
      bmi: {
        height: 150 + m + r,
        currentWeight: 60 + m + r / 2,
        Gender: r % 2 ? 'Female' : 'Male',
        date_of_birth: `${1960 + m}-0${1 + r}-1${r}`,
        idealBmiWeight: 55 + r / 4,
      },
    }),
    value: (p) => {
      const b = p.bmi ?? {};
      return JSON.stringify([Number(b.height), Number(b.currentWeight), b.Gender, b.date_of_birth, String(Number(b.idealBmiWeight))]);
    },
  },
  diet: {
    // A different non-empty subset of the six seeded food interests every round.
    body: (m, r) => {
      const mask = ((m * 7 + r * 5) % 63) + 1;
      return { diet_preference: r % 2 ? 'Ketovore' : 'Carnivore', ingredients: [1, 2, 3, 4, 5, 6].filter((id) => mask & (1 << (id - 1))) };
    },
    value: (p) =>
      JSON.stringify([p.diet_preference, (p.ingredients ?? []).map((i) => (typeof i === 'object' ? i.id : i)).sort((x, y) => x - y)]),
  },
};

/** Returns { errors, lost }. */
async function concurrentWrites(instances) {
  const pick = (k) => instances[k % instances.length];
  const failures = [];
  const fail = (what, res) => failures.push(`${what}: ${describeFailure(res)}`);

  log(
    `registering ${MEMBERS} members, alternating instances, each from its own client address ` +
      `(${memberAddress(0)}-${memberAddress(MEMBERS - 1)}), so the per-address limits stay at their defaults`,
  );
  const registered = await Promise.all(Array.from({ length: MEMBERS }, (_, m) => register(pick(m), memberAddress(m), `bench_m${m}`)));
  const members = [];
  registered.forEach((member, m) => (ok(member.res) ? members.push({ ...member, m }) : fail(`register member ${m}`, member.res)));

  const sectionNames = Object.keys(SECTIONS);
  log(`${members.length} members write ${sectionNames.join(', ')} concurrently, ${ROUNDS} rounds each, alternating instances`);
  const writeMs = [];
  const begin = performance.now();
  // Per member and section: the last acknowledged value, and values sent after it whose outcome is unknown.
  const chains = members.flatMap((member) => sectionNames.map((section, s) => ({ member, section, acknowledged: null, unknown: [], s })));
  await Promise.all(
    chains.map(async (chain) => {
      const { member, section, s } = chain;
      for (let r = 0; r < ROUNDS; r += 1) {
        const body = SECTIONS[section].body(member.m, r);
        const res = await call(member.from, pick(member.m + s + r).baseUrl, 'PUT', `/api/users/${member.id}`, { token: member.jwt, body });
        writeMs.push(res.ms);
        if (ok(res)) {
          chain.acknowledged = SECTIONS[section].value(body);
          chain.unknown = [];
        } else {
          fail(`member ${member.m} ${section} round ${r}`, res);
          // A failed write may still have been saved.
          chain.unknown.push(SECTIONS[section].value(body));
        }
      }
    }),
  );
  const seconds = (performance.now() - begin) / 1000;
  writeMs.sort((x, y) => x - y);

  log('re-reading every profile on every instance');
  const lostLines = [];
  const stored = await Promise.all(
    members.flatMap((member) =>
      instances.map(async (instance) => ({
        member,
        instance,
        res: await call(member.from, instance.baseUrl, 'GET', '/api/users/me?populate=*', { token: member.jwt }),
      })),
    ),
  );
  const lostChains = new Set();
  for (const { member, instance, res } of stored) {
    if (!ok(res)) {
      fail(`re-read member ${member.m} on ${instance.name}`, res);
      continue;
    }
    for (const chain of chains.filter((c) => c.member === member)) {
      if (chain.acknowledged === null) continue;
      const value = SECTIONS[chain.section].value(res.body);
      if (value !== chain.acknowledged && !chain.unknown.includes(value)) {
        lostChains.add(chain);
        lostLines.push(`member ${member.m} ${chain.section} on ${instance.name}: stored ${value}, last acknowledged ${chain.acknowledged}`);
      }
    }
  }

  console.log('');
  console.log(
    `Concurrent profile writes, ${instances.length} instances (${instances.map((i) => i.name).join(', ')}) on one PostgreSQL schema and one Redis:`,
  );
  console.log(
    `  ${members.length} members x ${sectionNames.length} sections (${sectionNames.join(', ')}) x ${ROUNDS} rounds = ${writeMs.length} PUT /api/users/:id` +
      ` in ${fmt(seconds, 1)} s (${fmt(writeMs.length / seconds)} writes/s, latency p50 ${fmt(percentile(writeMs, 50))} ms, p99 ${fmt(percentile(writeMs, 99))} ms)`,
  );
  console.log(`  re-read: ${stored.length} GET /api/users/me?populate=* (every member on every instance)`);
  const shown = 10;
  for (const line of failures.slice(0, shown)) console.log(`  error: ${line}`);
  if (failures.length > shown) console.log(`  ... and ${failures.length - shown} more errors`);
  for (const line of lostLines.slice(0, shown)) console.log(`  lost update: ${line}`);
  if (lostLines.length > shown) console.log(`  ... and ${lostLines.length - shown} more lost updates`);
  console.log(`errors: ${failures.length}, lost updates: ${lostChains.size}`);
  console.log('');
  return { errors: failures.length, lost: lostChains.size };
}

// ---- one instance on SQLite, when PostgreSQL or Redis is absent --------------------------------

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = net.createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

/** `npm run serve` (scripts/serve.mjs, NODE_ENV=production) on a throw-away SQLite file. */
async function startSqliteInstance() {
  compileServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-bench-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = path.join(dir, 'server.log');
  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'serve.mjs')], {
    cwd: ROOT,
    // Its own process group (serve.mjs -> npm -> strapi), stopped as a whole.
    detached: true,
    stdio: ['ignore', out, out],
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      DATABASE_CLIENT: 'sqlite',
      DATABASE_FILENAME: path.join(dir, 'data.db'),
      REDIS_URL: '',
      SMTP_HOST: '',
      EMAIL_CONFIRMATION: 'false',
      EMAIL_OUTBOX_DIR: path.join(dir, 'outbox'),
      STRAPI_TELEMETRY_DISABLED: 'true',
    },
  });
  fs.closeSync(out);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    const signal = (name) => {
      try {
        process.kill(-child.pid, name);
      } catch {
        // already gone
      }
    };
    signal('SIGTERM');
    const timer = setTimeout(() => signal('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
    signal('SIGKILL'); // anything of the group still there
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const instance = { name: 'A', baseUrl };
  running = { stop };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const res = await fetch(`${baseUrl}/api/health/ready`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
    if (res?.status === 200) return instance;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
  throw new Error(`the SQLite instance did not become ready. Log:\n${tail}`);
}

// ---- main ----------------------------------------------------------------------------------------

let exitCode = 0;
try {
  const missing = await missingServices();
  if (missing) {
    console.log(`bench: two-instance part SKIPPED: ${missing}. Throughput runs on one instance on SQLite.`);
    log('compiling the server and starting one instance on SQLite');
    const instance = await startSqliteInstance();
    if ((await throughput(instance, 'SQLite')) > 0) exitCode = 1;
  } else {
    log('compiling the server and starting two instances on a fresh PostgreSQL schema and Redis database 9');
    const cluster = await startCluster(2, { SPA_DIR: path.join(ROOT, 'dist') });
    running = cluster;
    const [a] = cluster.instances;
    log(`instances ${cluster.instances.map((i) => `${i.name} ${i.baseUrl}`).join(', ')} ready (schema ${cluster.schema})`);
    if ((await throughput(a, 'PostgreSQL + Redis')) > 0) exitCode = 1;
    const { errors, lost } = await concurrentWrites(cluster.instances);
    if (errors > 0 || lost > 0) exitCode = 1;
  }
} catch (error) {
  console.error(`bench: ${error.stack ?? error}`);
  exitCode = 1;
} finally {
  await stopRunning();
}
log(`done${exitCode ? ' (FAILED)' : ''}`);
clearTimeout(giveUp);
process.exit(exitCode);
