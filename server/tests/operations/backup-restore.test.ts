import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { request, SERVER_DIR } from '../helpers/strapi';
import { boot, type TestApp } from '../helpers/app';
import { signUp, type Member } from '../helpers/members';
import { PG, postgresEnv, withPostgres } from '../helpers/instances';
import type { WeightEntriesResponse } from '../../src/contract/progress';
import { utcDate } from '../../src/contract/progress';

const UPLOADS_MARKER = '/uploads/.carnivo-database';

const require = createRequire(import.meta.url);
const sharp = require('sharp') as typeof import('sharp').default;

/**
 * Issue 22 part 3, backups that restore (docs/operations.md "Backup and restore"): `npm run backup`
 * of a populated instance while it runs, then `npm run restore` into a fresh database and uploads
 * directory, and a fresh instance on them finds every member (they log in), subscription, weight
 * entry and picture (the same bytes served). On SQLite always, on PostgreSQL where one answers.
 * Broken, foreign and mismatched backups, and a server still running, are refused with nothing written.
 */

const USERS = 'plugin::users-permissions.user';
const BASE_ENV = {
  // Payments in the in-process sandbox.
  PAYMENTS_MODE: '',
  STRIPE_SECRET_KEY: '',
  STRIPE_PUBLISHABLE_KEY: '',
  STRIPE_WEBHOOK_SECRET: '',
  EMAIL_CONFIRMATION: 'false',
  UPLOAD_PROVIDER: 'local',
};
/** An instance for this file: several sign-ups and log-ins from one address, so no auth rate limit. */
const start = (env: Record<string, string>, databaseFile?: string) =>
  boot({ outbox: true, limits: 'off', databaseFile, env: { ...BASE_ENV, ...env } });

let tmpDir: string;

beforeAll(() => {
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-backup-test-'));
});
afterAll(() => {
  fs.rmSync(tmpDir, { recursive: true, force: true });
});

/** A public dir of its own (with uploads/), so the backup holds only this test's files. */
function publicDir(name: string): string {
  const dir = path.join(tmpDir, name);
  fs.mkdirSync(path.join(dir, 'uploads'), { recursive: true });
  return dir;
}

interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs server/scripts/<script> in its own process (asynchronously: the in-process server keeps answering meanwhile). */
function runScript(script: 'backup.js' | 'restore.js', args: string[], env: Record<string, string>): Promise<ScriptResult> {
  const started = Date.now();
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(DATABASE_|PUBLIC_DIR|UPLOAD_PROVIDER|S3_|BACKUP_DIR)/.test(key)),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(SERVER_DIR, 'scripts', script), ...args], {
      cwd: SERVER_DIR,
      env: { ...inherited, INIT_CWD: tmpDir, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    // 'close', not 'exit': the process can end before its output is read (a busy machine), and the refusals are read from it.
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

interface Picture {
  url: string;
  formats: Record<string, { url: string }> | null;
}
/** What the populated instance holds, as its API answered. */
interface Population {
  members: Member[];
  subscription: { memberIndex: number; id: string; status: string; planName: string | undefined };
  weights: Map<number, { date: string; weight: number }[]>;
  picture: { memberIndex: number; urls: string[]; sha256: Map<string, string> };
}

const sha256 = (bytes: ArrayBuffer) => crypto.createHash('sha256').update(Buffer.from(bytes)).digest('hex');
const daysAgo = (days: number) => utcDate(new Date(Date.now() - days * 86_400_000));

async function weightsOf(baseUrl: string, member: Member) {
  const res = await request<WeightEntriesResponse>(baseUrl, 'GET', '/api/weight-entries', { token: member.jwt });
  expect(res.status).toBe(200);
  return res.body.data.map(({ date, weight }) => ({ date, weight })).sort((a, b) => a.date.localeCompare(b.date));
}

async function currentSubscription(baseUrl: string, member: Member) {
  const res = await request<{ id: string; status: string; plan: { productName: string } | null } | null>(
    baseUrl,
    'GET',
    '/api/subscriptions/current',
    {
      token: member.jwt,
    },
  );
  expect(res.status).toBe(200);
  return res.body;
}

async function pictureOf(baseUrl: string, member: Member): Promise<Picture | null> {
  const res = await request<{ profile_picture: Picture | null }>(baseUrl, 'GET', '/api/users/me?populate=profile_picture', {
    token: member.jwt,
  });
  expect(res.status).toBe(200);
  return res.body.profile_picture;
}

async function servedBytes(baseUrl: string, url: string) {
  const res = await fetch(baseUrl + url);
  return { status: res.status, sha256: sha256(await res.arrayBuffer()) };
}

/** Members through the API, one subscription paid through the sandbox gateway, weight entries and a picture. */
async function populate(baseUrl: string, prefix: string): Promise<Population> {
  const members: Member[] = [];
  for (let i = 0; i < 3; i++) members.push(await signUp(baseUrl, `${prefix}${i}`));

  const subscriber = members[0];
  const created = await request<{ subscriptionId: string; clientSecret: string }>(baseUrl, 'POST', '/api/subscriptions', {
    token: subscriber.jwt,
    body: { priceId: 'price_sandbox_monthly' },
  });
  expect(created.status).toBe(200);
  const paid = await request(baseUrl, 'POST', '/api/payments/sandbox/confirm', {
    body: { clientSecret: created.body.clientSecret, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' },
  });
  expect(paid.status).toBe(200);
  const verified = await request<{ status: string }>(baseUrl, 'GET', `/api/subscriptions/${created.body.subscriptionId}/verify`, {
    token: subscriber.jwt,
  });
  expect(verified.body.status).toBe('active');
  const subscription = await currentSubscription(baseUrl, subscriber);

  const weights = new Map<number, { date: string; weight: number }[]>();
  const entries: [number, number, number][] = [
    [0, 3, 91.5],
    [0, 2, 90.8],
    [1, 5, 70.2],
  ];
  for (const [index, days, weight] of entries) {
    const res = await request(baseUrl, 'POST', '/api/weight-entries', { token: members[index].jwt, body: { date: daysAgo(days), weight } });
    expect(res.status).toBe(201);
  }
  for (const member of members) weights.set(member.id, await weightsOf(baseUrl, member));

  const pictureOwner = members[1];
  const form = new FormData();
  const png = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#8b0000' } })
    .png()
    .toBuffer();
  form.append('files', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png');
  form.append('refId', String(pictureOwner.id));
  form.append('ref', USERS);
  form.append('field', 'profile_picture');
  const uploaded = await fetch(`${baseUrl}/api/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${pictureOwner.jwt}` },
    body: form,
  });
  expect(uploaded.status).toBe(201);
  const picture = (await pictureOf(baseUrl, pictureOwner))!;
  const urls = [picture.url, ...Object.values(picture.formats ?? {}).map((format) => format.url)];
  const hashes = new Map<string, string>();
  for (const url of urls) {
    const served = await servedBytes(baseUrl, url);
    expect(served.status).toBe(200);
    hashes.set(url, served.sha256);
  }

  return {
    members,
    subscription: { memberIndex: 0, id: subscription!.id, status: subscription!.status, planName: subscription!.plan?.productName },
    weights,
    picture: { memberIndex: 1, urls, sha256: hashes },
  };
}

/** Every member logs in; the subscription, weight entries and picture (its bytes) are as the source instance served them. */
async function expectRestored(app: TestApp, population: Population) {
  const { baseUrl } = app;
  const found = { members: 0, subscriptions: 0, weightEntries: 0, pictureFiles: 0 };
  const loggedIn: Member[] = [];
  for (const member of population.members) {
    const res = await app.login(member.email, member.password);
    expect(res.status, `${member.email} logs in`).toBe(200);
    expect(res.body.user.id).toBe(member.id);
    loggedIn.push({ ...member, jwt: res.body.jwt });
    found.members++;
  }
  const subscription = await currentSubscription(baseUrl, loggedIn[population.subscription.memberIndex]);
  expect(subscription).toMatchObject({ id: population.subscription.id, status: population.subscription.status });
  expect(subscription?.plan?.productName).toBe(population.subscription.planName);
  found.subscriptions++;
  for (const member of loggedIn) {
    const entries = await weightsOf(baseUrl, member);
    expect(entries).toEqual(population.weights.get(member.id));
    found.weightEntries += entries.length;
  }
  const picture = await pictureOf(baseUrl, loggedIn[population.picture.memberIndex]);
  expect(picture?.url).toBe(population.picture.urls[0]);
  for (const url of population.picture.urls) {
    expect(await servedBytes(baseUrl, url), url).toEqual({ status: 200, sha256: population.picture.sha256.get(url) });
    found.pictureFiles++;
  }
  return found;
}

interface Manifest {
  database: { client: string; bytes: number; sha256: string; schema?: string };
  counts: Record<string, number | null>;
  uploads: { provider: string; files: { path: string; bytes: number; sha256: string }[]; missing: string[] };
}
const readManifest = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
/** Every directory and file of a backup that is not owner-only (0700 / 0600), as "mode path". */
const looserThanOwner = (dir: string) =>
  [dir, ...fs.readdirSync(dir, { recursive: true }).map((name) => path.join(dir, String(name)))]
    .map((entry) => ({ entry, stat: fs.statSync(entry) }))
    .filter(({ stat }) => (stat.mode & 0o777) !== (stat.isDirectory() ? 0o700 : 0o600))
    .map(({ entry, stat }) => `${(stat.mode & 0o777).toString(8)} ${entry}`);
const backupBytes = (dir: string) =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .reduce((sum, entry) => (entry.isFile() ? sum + fs.statSync(path.join(entry.parentPath, entry.name)).size : sum), 0);

describe('SQLite: backup while the server runs, restore into a fresh instance', () => {
  let source: TestApp | undefined;
  let restored: TestApp | undefined;
  let population: Population;
  let sourcePublic: string;
  let backupDir: string;
  const sqliteEnv = (file: string, publicDirectory: string) => ({
    DATABASE_CLIENT: 'sqlite',
    DATABASE_FILENAME: file,
    PUBLIC_DIR: publicDirectory,
  });

  beforeAll(async () => {
    sourcePublic = publicDir('source-public');
    source = await start({ PUBLIC_DIR: sourcePublic });
    population = await populate(source.baseUrl, 'sqlmember');
  });
  afterAll(async () => {
    await source?.stop();
    await restored?.stop();
  });

  it('runs the database in write-ahead-log mode, each commit synced (server/config/database.ts)', async () => {
    const connection = source!.strapi.db.connection;
    const [journal] = (await connection.raw('PRAGMA journal_mode')) as { journal_mode: string }[];
    const [sync] = (await connection.raw('PRAGMA synchronous')) as { synchronous: number }[];
    // 2 is FULL: a commit is on disk before the server answers.
    expect([journal.journal_mode, sync.synchronous]).toEqual(['wal', 2]);
    expect(fs.existsSync(`${source!.databaseFile!}-wal`)).toBe(true);
  });

  it('backs up while the server keeps answering reads and writes', async () => {
    backupDir = path.join(tmpDir, 'sqlite-backup');
    const backup = runScript('backup.js', ['sqlite-backup'], sqliteEnv(source!.databaseFile!, sourcePublic));
    // Writes sent while the backup process runs are answered (bounded: 200 writes or the backup's end).
    let done = false;
    void backup.then(() => (done = true));
    const note = population.members[2];
    let acknowledged = 0;
    for (let i = 0; i < 200 && !done; i++) {
      const res = await request(source!.baseUrl, 'PUT', `/api/users/${note.id}`, {
        token: note.jwt,
        body: { personal_goal_note: `note ${i}` },
      });
      expect(res.status).toBe(200);
      acknowledged++;
    }
    const result = await backup;
    expect(result.code, result.stderr).toBe(0);
    expect(acknowledged).toBeGreaterThan(0);
    console.log(
      `[backup-restore] SQLite backup: ${result.ms} ms, ${backupBytes(backupDir)} bytes, ${acknowledged} writes answered meanwhile`,
    );

    const manifest = readManifest(backupDir);
    expect(manifest.database.client).toBe('sqlite');
    expect(manifest.counts).toEqual({ members: 3, subscriptions: 1, weightEntries: 3, files: 1 });
    expect(manifest.uploads.missing).toEqual([]);
    // The pictures' files, and the marker that ties the directory to this database (src/uploads/interrupted-uploads.ts).
    expect(manifest.uploads.files.map((file) => `/uploads/${file.path}`).sort()).toEqual(
      [...population.picture.urls, UPLOADS_MARKER].sort(),
    );
    expect(fs.existsSync(`${backupDir}.partial`)).toBe(false);
    // Members' data: owner-only, whatever the umask and the uploads' own modes.
    expect(looserThanOwner(backupDir)).toEqual([]);
    // Still serving after the backup.
    expect((await request(source!.baseUrl, 'GET', '/api/users/me', { token: note.jwt })).status).toBe(200);
  });

  it('refuses to restore over the database of a running server, and leaves it as it was', async () => {
    const before = fs.readFileSync(source!.databaseFile!);
    const result = await runScript('restore.js', [backupDir], sqliteEnv(source!.databaseFile!, sourcePublic));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/is open in process \d+.*stop the server/);
    expect(fs.readFileSync(source!.databaseFile!).equals(before)).toBe(true);
    expect(fs.readdirSync(path.dirname(source!.databaseFile!)).filter((name) => name.includes('restoring'))).toEqual([]);
  });

  it('refuses a missing, unfinished, corrupt or mismatched backup, writing nothing', async () => {
    const targetFile = path.join(tmpDir, 'refused.db');
    const targetPublic = publicDir('refused-public');
    fs.writeFileSync(path.join(targetPublic, 'uploads', 'kept.txt'), 'kept');
    const attempt = (dir: string, env: Record<string, string> = {}) =>
      runScript('restore.js', [dir], { ...sqliteEnv(targetFile, targetPublic), ...env });
    const copy = (name: string) => {
      const dir = path.join(tmpDir, name);
      fs.cpSync(backupDir, dir, { recursive: true });
      return dir;
    };

    const cases: [string, Promise<ScriptResult>, RegExp][] = [];
    cases.push(['no such directory', attempt(path.join(tmpDir, 'nothing-here')), /is not a directory/]);
    const partial = copy('interrupted.partial');
    cases.push(['unfinished', attempt(partial), /unfinished backup/]);
    const noManifest = copy('no-manifest');
    fs.rmSync(path.join(noManifest, 'manifest.json'));
    cases.push(['no manifest', attempt(noManifest), /not a Carnivo backup: it has no manifest\.json/]);
    const badManifest = copy('bad-manifest');
    fs.writeFileSync(path.join(badManifest, 'manifest.json'), '{"format": "carnivo-backup", ');
    cases.push(['corrupt manifest', attempt(badManifest), /manifest\.json is corrupt/]);
    const flipped = copy('flipped-database');
    const database = fs.readFileSync(path.join(flipped, 'database.sqlite'));
    database[Math.floor(database.length / 2)] ^= 0xff;
    fs.writeFileSync(path.join(flipped, 'database.sqlite'), database);
    cases.push(['corrupt database', attempt(flipped), /database file .* is corrupt/]);
    const truncated = copy('truncated-upload');
    const upload = path.join(truncated, 'uploads', readManifest(truncated).uploads.files[0].path);
    fs.truncateSync(upload, 10);
    cases.push(['corrupt upload', attempt(truncated), /upload .* is corrupt/]);
    cases.push([
      'wrong database client',
      attempt(backupDir, { DATABASE_CLIENT: 'postgres' }),
      /holds a sqlite database but this server is configured for postgres/,
    ]);

    for (const [name, pending, message] of cases) {
      const result = await pending;
      expect([name, result.code]).toEqual([name, 1]);
      expect(result.stderr, name).toMatch(message);
    }
    expect(fs.existsSync(targetFile)).toBe(false);
    expect(fs.readdirSync(targetPublic).sort()).toEqual(['uploads']);
    expect(fs.readdirSync(path.join(targetPublic, 'uploads'))).toEqual(['kept.txt']);
    expect(fs.readdirSync(tmpDir).filter((name) => name.includes('restoring'))).toEqual([]);
  });

  it('restores into a fresh database file and uploads directory; a fresh instance finds every member, subscription, weight entry and picture', async () => {
    const targetFile = path.join(tmpDir, 'restored', 'data.db');
    const targetPublic = publicDir('restored-public');
    fs.writeFileSync(path.join(targetPublic, 'uploads', 'previous.txt'), 'previous');
    const result = await runScript('restore.js', [backupDir], sqliteEnv(targetFile, targetPublic));
    expect(result.code, result.stderr).toBe(0);
    // The uploads directory it replaced is kept aside.
    const keptAside = fs.readdirSync(targetPublic).filter((name) => name.startsWith('uploads.pre-restore-'));
    expect(keptAside).toHaveLength(1);
    expect(fs.readdirSync(path.join(targetPublic, keptAside[0]))).toEqual(['previous.txt']);

    await source!.stop();
    source = undefined;
    // New secrets (bootStrapi): old sessions do not carry over, the members log in again with their passwords.
    restored = await start({ PUBLIC_DIR: targetPublic }, targetFile);
    const found = await expectRestored(restored, population);
    expect(found).toEqual({ members: 3, subscriptions: 1, weightEntries: 3, pictureFiles: population.picture.urls.length });
    console.log(`[backup-restore] SQLite restore: ${result.ms} ms; found ${JSON.stringify(found)}`);
  });
});

const pgMissing = await withPostgres(async () => null).catch((error: Error) => `no PostgreSQL (${error.message})`);
if (pgMissing) console.warn(`[backup-restore.test] PostgreSQL part skipped: ${pgMissing}`);

describe.skipIf(pgMissing)('PostgreSQL: pg_dump of the schema, pg_restore into a fresh database', () => {
  const schema = `carnivo_backup_${crypto.randomBytes(4).toString('hex')}`;
  const freshDatabase = `carnivo_restore_${crypto.randomBytes(4).toString('hex')}`;
  let source: TestApp | undefined;
  let restored: TestApp | undefined;
  let population: Population;
  let sourcePublic: string;
  let backupDir: string;

  beforeAll(async () => {
    await withPostgres((client) => client.query(`CREATE SCHEMA "${schema}"`));
    await withPostgres((client) => client.query(`CREATE DATABASE "${freshDatabase}"`));
    sourcePublic = publicDir('pg-source-public');
    source = await start({ ...postgresEnv(schema), PUBLIC_DIR: sourcePublic });
    population = await populate(source.baseUrl, 'pgmember');
  });
  afterAll(async () => {
    await source?.stop();
    await restored?.stop();
    await withPostgres((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    await withPostgres((client) => client.query(`DROP DATABASE IF EXISTS "${freshDatabase}" WITH (FORCE)`));
  });

  it('backs up the configured schema with pg_dump while the server runs', async () => {
    backupDir = path.join(tmpDir, 'pg-backup');
    const result = await runScript('backup.js', [backupDir], { ...postgresEnv(schema), PUBLIC_DIR: sourcePublic });
    expect(result.code, result.stderr).toBe(0);
    console.log(`[backup-restore] PostgreSQL backup: ${result.ms} ms, ${backupBytes(backupDir)} bytes`);
    const manifest = readManifest(backupDir);
    expect(manifest.database).toMatchObject({ client: 'postgres', schema });
    expect(manifest.counts).toEqual({ members: 3, subscriptions: 1, weightEntries: 3, files: 1 });
    expect(manifest.uploads.files).toHaveLength(population.picture.urls.length + 1);
    expect(manifest.uploads.files.map((file) => `/uploads/${file.path}`)).toContain(UPLOADS_MARKER);
    expect((await request(source!.baseUrl, 'GET', '/api/users/me', { token: population.members[0].jwt })).status).toBe(200);
    expect(looserThanOwner(backupDir)).toEqual([]);
  });

  it('never puts the database password on pg_dump’s command line, even from DATABASE_URL; the backup is owner-only', async () => {
    // A pg_dump in front of the real one that writes down its arguments and whether PGPASSWORD reached it.
    const major = Math.floor(
      Number((await withPostgres((client) => client.query('SHOW server_version_num'))).rows[0].server_version_num) / 10000,
    );
    const debian = `/usr/lib/postgresql/${major}/bin/pg_dump`;
    const binDir = path.join(tmpDir, 'pg-bin-spy');
    const argvLog = path.join(tmpDir, 'pg-dump-argv.log');
    fs.mkdirSync(binDir, { recursive: true });
    fs.writeFileSync(
      path.join(binDir, 'pg_dump'),
      `#!/bin/sh\nprintf 'ARG %s\\n' "$@" >> '${argvLog}'\nprintf 'PGPASSWORD=%s\\n' "$PGPASSWORD" >> '${argvLog}'\nexec ${fs.existsSync(debian) ? debian : 'pg_dump'} "$@"\n`,
      { mode: 0o755 },
    );
    const password = `Url-Secret-${crypto.randomBytes(4).toString('hex')}`;
    const url = `postgres://${encodeURIComponent(PG.user)}:${password}@${PG.host}:${PG.port}/${PG.database}`;
    const target = path.join(tmpDir, 'pg-backup-url');
    const result = await runScript('backup.js', [target], {
      ...postgresEnv(schema),
      DATABASE_URL: url,
      PG_BIN_DIR: binDir,
      PUBLIC_DIR: sourcePublic,
    });
    expect(result.code, result.stderr).toBe(0);
    const log = fs.readFileSync(argvLog, 'utf8');
    const args = log.split('\n').filter((line) => line.startsWith('ARG '));
    expect(args.some((line) => line.startsWith('ARG --dbname=postgres://'))).toBe(true);
    expect(args.join('\n')).not.toContain(password);
    expect(log).toContain(`PGPASSWORD=${password}`);
    expect(looserThanOwner(target)).toEqual([]);
  });

  it('refuses a schema other than the backup’s', async () => {
    const result = await runScript('restore.js', [backupDir], {
      ...postgresEnv('some_other_schema'),
      DATABASE_NAME: freshDatabase,
      PUBLIC_DIR: publicDir('pg-refused-public'),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`holds schema "${schema}" but this server uses "some_other_schema"`));
    const tables = await withPostgres((client) =>
      client.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`),
    );
    expect(tables.rows[0].n).toBeGreaterThan(0); // the shared test database, untouched
  });

  it('restores into a fresh database; a fresh instance finds everything; a second restore is refused while it runs', async () => {
    const targetPublic = publicDir('pg-restored-public');
    const targetEnv = { ...postgresEnv(schema), DATABASE_NAME: freshDatabase, PUBLIC_DIR: targetPublic };
    const result = await runScript('restore.js', [backupDir], targetEnv);
    expect(result.code, result.stderr).toBe(0);

    await source!.stop();
    source = undefined;
    restored = await start(targetEnv);
    const found = await expectRestored(restored, population);
    expect(found).toEqual({ members: 3, subscriptions: 1, weightEntries: 3, pictureFiles: population.picture.urls.length });
    console.log(`[backup-restore] PostgreSQL restore: ${result.ms} ms; found ${JSON.stringify(found)}`);

    const again = await runScript('restore.js', [backupDir], targetEnv);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/other session\(s\) are connected to database carnivo_restore_\w+.*Stop every instance first/);
  });
});
