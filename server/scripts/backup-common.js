'use strict';
/**
 * What `npm run backup` and `npm run restore` share (docs/operations.md "Backup and restore"): the
 * server's database and upload settings read from the environment and server/.env the way
 * config/database.ts, config/server.ts and src/uploads/upload-config.ts read them, checksums, the
 * PostgreSQL tools and the manifest's shape.
 */
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const SERVER_DIR = path.resolve(__dirname, '..');
const MANIFEST = 'manifest.json';
const FORMAT = 'carnivo-backup';
const FORMAT_VERSION = 1;
const SQLITE_FILE = 'database.sqlite';
const PG_FILE = 'database.dump';
const UPLOADS = 'uploads';

/** Tables whose rows the manifest counts, and restore checks again. */
const COUNTED_TABLES = { members: 'up_users', subscriptions: 'subscriptions', weightEntries: 'weight_entries', files: 'files' };

class BackupError extends Error {}

/** server/.env, as Strapi loads it: values already in the environment win. */
function loadServerEnv() {
  const envFile = path.join(SERVER_DIR, '.env');
  if (fs.existsSync(envFile)) process.loadEnvFile(envFile);
}

// Strapi's env(key, default): a variable that is set, even empty, wins over the default.
const envValue = (env, key, fallback) => (Object.prototype.hasOwnProperty.call(env, key) ? env[key] : fallback);

function databaseConfig(env = process.env) {
  const client = envValue(env, 'DATABASE_CLIENT', 'sqlite');
  if (client === 'sqlite') {
    return { client, filename: path.resolve(SERVER_DIR, envValue(env, 'DATABASE_FILENAME', '.tmp/data.db')) };
  }
  if (client !== 'postgres') throw new BackupError(`Unsupported DATABASE_CLIENT: ${client}. Use "sqlite" (default) or "postgres".`);
  return {
    client,
    url: envValue(env, 'DATABASE_URL', '') || '',
    host: envValue(env, 'DATABASE_HOST', 'localhost'),
    port: Number.parseInt(envValue(env, 'DATABASE_PORT', '5432'), 10),
    database: envValue(env, 'DATABASE_NAME', 'strapi'),
    user: envValue(env, 'DATABASE_USERNAME', 'strapi'),
    password: envValue(env, 'DATABASE_PASSWORD', 'strapi'),
    ssl: envValue(env, 'DATABASE_SSL', 'false') === 'true',
    schema: envValue(env, 'DATABASE_SCHEMA', 'public') || 'public',
  };
}

/** Where uploads live: `<PUBLIC_DIR>/uploads` on local disk, or nowhere here with S3. */
function uploadsConfig(env = process.env) {
  const requested = (env.UPLOAD_PROVIDER || '').trim().toLowerCase();
  const provider = requested || ((env.S3_BUCKET || '').trim() ? 's3' : 'local');
  const publicDir = path.resolve(SERVER_DIR, envValue(env, 'PUBLIC_DIR', './public'));
  return { provider, publicDir, dir: path.join(publicDir, UPLOADS) };
}

function sha256File(file) {
  const hash = crypto.createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(1 << 20);
    let read;
    while ((read = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0) hash.update(buffer.subarray(0, read));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

/** Every regular file under `dir`, as paths relative to it with '/' separators. */
function listFiles(dir, prefix = '') {
  if (!fs.existsSync(dir)) return [];
  const found = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...listFiles(path.join(dir, entry.name), relative));
    else if (entry.isFile()) found.push(relative);
  }
  return found.sort();
}

/** Copies every file of `from` into `to` (created), returning [{ path, bytes, sha256 }] of what was copied. */
function copyTree(from, to) {
  fs.mkdirSync(to, { recursive: true });
  return listFiles(from).map((relative) => {
    const target = path.join(to, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(from, relative), target);
    return { path: relative, bytes: fs.statSync(target).size, sha256: sha256File(target) };
  });
}

/** The local-disk files a `files` row names: its url and each format's url, as paths under uploads/. */
function uploadPathsOfRows(rows) {
  const paths = new Set();
  for (const row of rows) {
    if (row.provider !== 'local') continue;
    let formats = row.formats;
    if (typeof formats === 'string') {
      try {
        formats = JSON.parse(formats);
      } catch {
        formats = null;
      }
    }
    const urls = [row.url, ...Object.values(formats || {}).map((format) => format && format.url)];
    for (const url of urls) {
      if (typeof url === 'string' && url.startsWith(`/${UPLOADS}/`)) paths.add(url.slice(UPLOADS.length + 2));
    }
  }
  return [...paths].sort();
}

const quoteIdent = (name) => `"${String(name).replace(/"/g, '""')}"`;

/** The `pg` client options of config/database.ts. */
function pgClientConfig(db) {
  return {
    ...(db.url
      ? { connectionString: db.url }
      : { host: db.host, port: db.port, database: db.database, user: db.user, password: db.password }),
    ssl: db.ssl ? { rejectUnauthorized: process.env.DATABASE_SSL_REJECT_UNAUTHORIZED !== 'false' } : false,
    connectionTimeoutMillis: 10_000,
  };
}

/**
 * Environment and connection arguments for pg_dump / pg_restore / psql reaching the same database.
 * The password goes in PGPASSWORD, never in the arguments (any local user can read a process's
 * command line): taken out of DATABASE_URL when it holds one.
 */
function pgToolConnection(db) {
  const env = { ...process.env };
  if (db.ssl && !env.PGSSLMODE) env.PGSSLMODE = 'require';
  if (db.url) {
    let url;
    try {
      url = new URL(db.url);
    } catch {
      throw new BackupError('DATABASE_URL is not a URL such as postgres://user:password@host:5432/database.');
    }
    if (url.password) {
      env.PGPASSWORD = decodeURIComponent(url.password);
      url.password = '';
    }
    return { env, args: [`--dbname=${url.toString()}`] };
  }
  Object.assign(env, { PGHOST: db.host, PGPORT: String(db.port), PGDATABASE: db.database, PGUSER: db.user });
  if (db.password) env.PGPASSWORD = db.password;
  return { env, args: [`--dbname=${db.database}`] };
}

/**
 * The path of a PostgreSQL tool whose major version is `major`: PG_BIN_DIR when set, else Debian's
 * /usr/lib/postgresql/<major>/bin when present, else the one on PATH. Throws unless the versions match.
 */
function pgTool(name, major) {
  const candidates = [];
  if (process.env.PG_BIN_DIR) candidates.push(path.join(process.env.PG_BIN_DIR, name));
  else {
    const debian = `/usr/lib/postgresql/${major}/bin/${name}`;
    if (fs.existsSync(debian)) candidates.push(debian);
    candidates.push(name);
  }
  const tool = candidates[0];
  const result = spawnSync(tool, ['--version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new BackupError(
      `${name} was not found (${tool}): install the PostgreSQL ${major} client tools, or set PG_BIN_DIR to their directory.`,
    );
  }
  const match = /\(PostgreSQL\)\s+(\d+)/.exec(result.stdout);
  const toolMajor = match ? Number(match[1]) : NaN;
  if (toolMajor !== major) {
    throw new BackupError(
      `${tool} is PostgreSQL ${match ? match[1] : '(unknown)'} but the server is PostgreSQL ${major}: ` +
        `install the PostgreSQL ${major} client tools, or set PG_BIN_DIR to their directory.`,
    );
  }
  return { path: tool, version: result.stdout.trim() };
}

function run(tool, args, env) {
  const result = spawnSync(tool, args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw new BackupError(`${tool} could not run: ${result.error.message}`);
  if (result.status !== 0) throw new BackupError(`${path.basename(tool)} failed (exit ${result.status}):\n${result.stderr.trim()}`);
  return result.stdout;
}

const formatBytes = (bytes) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 ** 2 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/** A UTC timestamp usable in a file name: 20261125T001025Z. */
const fileStamp = (date = new Date()) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

/** Resolves a path given on the command line against the directory npm was run from. */
const fromInvocation = (given) => path.resolve(process.env.INIT_CWD || process.cwd(), given);

module.exports = {
  SERVER_DIR,
  MANIFEST,
  FORMAT,
  FORMAT_VERSION,
  SQLITE_FILE,
  PG_FILE,
  UPLOADS,
  COUNTED_TABLES,
  BackupError,
  loadServerEnv,
  databaseConfig,
  uploadsConfig,
  sha256File,
  listFiles,
  copyTree,
  uploadPathsOfRows,
  quoteIdent,
  pgClientConfig,
  pgToolConnection,
  pgTool,
  run,
  formatBytes,
  fileStamp,
  fromInvocation,
};
