#!/usr/bin/env node
'use strict';
/**
 * npm run backup [-- <directory>]
 *
 * Writes one backup directory (docs/operations.md "Backup and restore"): manifest.json, the database
 * (database.sqlite from SQLite's online backup API, or database.dump from `pg_dump -Fc` of
 * DATABASE_SCHEMA) and uploads/ (local disk only). Safe while the server runs. Without an argument
 * the directory is $BACKUP_DIR/carnivo-<UTC timestamp> (BACKUP_DIR default server/backups).
 * It is written as <directory>.partial and renamed once complete, so a directory without that
 * suffix is a whole backup. Exit code 0 on success, 1 on failure, 2 on bad arguments.
 */
const fs = require('fs');
const path = require('path');
const common = require('./backup-common');
const { runCli } = require('./cli');

const USAGE = 'Usage: npm run backup [-- <directory>]   (default: $BACKUP_DIR/carnivo-<UTC timestamp>, BACKUP_DIR default server/backups)';

function parseArgs(argv) {
  const positional = argv.filter((arg) => !arg.startsWith('-'));
  const flags = argv.filter((arg) => arg.startsWith('-'));
  if (flags.some((flag) => flag === '--help' || flag === '-h')) return { help: true };
  if (flags.length > 0) throw new Error(`Unknown argument "${flags[0]}".\n${USAGE}`);
  if (positional.length > 1) throw new Error(`One directory at most.\n${USAGE}`);
  return { target: positional[0] };
}

/** Row counts and `files` rows of a SQLite database file. */
function sqliteContents(Database, file) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all());
    const counts = {};
    for (const [key, table] of Object.entries(common.COUNTED_TABLES)) {
      counts[key] = tables.has(table)
        ? db
            .prepare(`SELECT count(*) FROM ${common.quoteIdent(table)}`)
            .pluck()
            .get()
        : null;
    }
    const fileRows = tables.has('files') ? db.prepare('SELECT url, formats, provider FROM files').all() : [];
    return { counts, fileRows };
  } finally {
    db.close();
  }
}

async function backupSqlite(db, staging) {
  if (!fs.existsSync(db.filename)) throw new common.BackupError(`No SQLite database at ${db.filename} (DATABASE_FILENAME).`);
  const Database = require('better-sqlite3');
  const source = new Database(db.filename, { readonly: true, fileMustExist: true });
  const target = path.join(staging, common.SQLITE_FILE);
  try {
    // The online backup API copies pages in steps and restarts when another connection writes, so the copy is consistent while the server runs.
    await source.backup(target);
  } finally {
    source.close();
  }
  const { counts, fileRows } = sqliteContents(Database, target);
  return { manifest: { client: 'sqlite', file: common.SQLITE_FILE }, file: target, counts, fileRows };
}

async function backupPostgres(db, staging) {
  const { Client } = require('pg');
  const client = new Client(common.pgClientConfig(db));
  await client.connect();
  try {
    const serverVersionNum = Number((await client.query('SHOW server_version_num')).rows[0].server_version_num);
    const serverMajor = Math.floor(serverVersionNum / 10000);
    const pgDump = common.pgTool('pg_dump', serverMajor);
    const schemaExists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [db.schema]);
    if (schemaExists.rowCount === 0)
      throw new common.BackupError(`Schema "${db.schema}" (DATABASE_SCHEMA) does not exist in database ${db.database}.`);

    // One snapshot for the counts, the file list and pg_dump: they describe the same moment.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const snapshot = (await client.query('SELECT pg_export_snapshot() AS id')).rows[0].id;
    const tables = new Set(
      (await client.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [db.schema])).rows.map(
        (row) => row.table_name,
      ),
    );
    const qualified = (table) => `${common.quoteIdent(db.schema)}.${common.quoteIdent(table)}`;
    const counts = {};
    for (const [key, table] of Object.entries(common.COUNTED_TABLES)) {
      counts[key] = tables.has(table) ? Number((await client.query(`SELECT count(*) AS n FROM ${qualified(table)}`)).rows[0].n) : null;
    }
    const fileRows = tables.has('files') ? (await client.query(`SELECT url, formats, provider FROM ${qualified('files')}`)).rows : [];

    const target = path.join(staging, common.PG_FILE);
    const connection = common.pgToolConnection(db);
    common.run(
      pgDump.path,
      ['--format=custom', `--schema=${common.quoteIdent(db.schema)}`, `--snapshot=${snapshot}`, `--file=${target}`, ...connection.args],
      connection.env,
    );
    await client.query('COMMIT');
    return {
      manifest: { client: 'postgres', file: common.PG_FILE, schema: db.schema, serverVersionNum, pgDump: pgDump.version },
      file: target,
      counts,
      fileRows,
    };
  } finally {
    await client.end();
  }
}

/** 0700 directories and 0600 files throughout (a copied upload keeps its source's mode, whatever the mask). */
function restrictTree(dir) {
  fs.chmodSync(dir, 0o700);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const entryPath = path.join(dir, entry.name);
    if (entry.isDirectory()) restrictTree(entryPath);
    else fs.chmodSync(entryPath, 0o600);
  }
}

async function main(options) {
  // A backup holds every member's data: its files 0600, its directories 0700 (pg_dump inherits the mask).
  process.umask(0o077);
  common.loadServerEnv();
  const started = Date.now();
  const createdAt = new Date();
  const db = common.databaseConfig();
  const uploads = common.uploadsConfig();
  const target = options.target
    ? common.fromInvocation(options.target)
    : path.join(path.resolve(common.SERVER_DIR, process.env.BACKUP_DIR || 'backups'), `carnivo-${common.fileStamp(createdAt)}`);
  if (fs.existsSync(target)) throw new common.BackupError(`${target} already exists: name a new directory.`);
  const staging = `${target}.partial`;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  try {
    fs.mkdirSync(staging, { mode: 0o700 });
  } catch (error) {
    if (error.code === 'EEXIST')
      throw new common.BackupError(`${staging} exists: another backup is running, or one was interrupted (remove it).`);
    throw error;
  }

  try {
    const database = db.client === 'sqlite' ? await backupSqlite(db, staging) : await backupPostgres(db, staging);
    // After the database, so every file a row of the copy names was already written (an upload writes its files before its row).
    let uploadFiles = [];
    if (uploads.provider === 'local') uploadFiles = common.copyTree(uploads.dir, path.join(staging, common.UPLOADS));
    const copied = new Set(uploadFiles.map((file) => file.path));
    const missing = uploads.provider === 'local' ? common.uploadPathsOfRows(database.fileRows).filter((file) => !copied.has(file)) : [];

    const manifest = {
      format: common.FORMAT,
      version: common.FORMAT_VERSION,
      createdAt: createdAt.toISOString(),
      app: require(path.join(common.SERVER_DIR, 'package.json')).version,
      database: { ...database.manifest, bytes: fs.statSync(database.file).size, sha256: common.sha256File(database.file) },
      counts: database.counts,
      uploads:
        uploads.provider === 'local'
          ? { provider: 'local', files: uploadFiles, missing }
          : {
              provider: 's3',
              files: [],
              note: 'Uploads are stored in S3: the objects are not in this backup (back the bucket up on its own).',
            },
    };
    fs.writeFileSync(path.join(staging, common.MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    restrictTree(staging);
    fs.renameSync(staging, target);

    const bytes = manifest.database.bytes + uploadFiles.reduce((sum, file) => sum + file.bytes, 0);
    console.log(`Backup written to ${target}`);
    console.log(
      `  database: ${db.client}${db.client === 'postgres' ? ` (schema ${db.schema})` : ''}, ${common.formatBytes(manifest.database.bytes)}`,
    );
    console.log(
      `  counts: ${Object.entries(manifest.counts)
        .map(([key, count]) => `${key} ${count ?? '-'}`)
        .join(', ')}`,
    );
    console.log(
      uploads.provider === 'local'
        ? `  uploads: ${uploadFiles.length} files from ${uploads.dir}`
        : '  uploads: stored in S3, NOT in this backup (back the bucket up on its own)',
    );
    if (missing.length > 0) {
      console.warn(
        `  warning: ${missing.length} file(s) named by the database were not on disk (removed meanwhile?): ${missing.join(', ')}`,
      );
    }
    console.log(`  total ${common.formatBytes(bytes)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return 0;
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

runCli({
  parseArgs,
  usage: USAGE,
  run: main,
  describe: (error) => (error instanceof common.BackupError ? `Backup failed: ${error.message}` : error),
});
