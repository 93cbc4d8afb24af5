#!/usr/bin/env node
'use strict';
/**
 * npm run restore -- <backup directory> [--ignore-connections]
 *
 * Restores a backup written by `npm run backup` into the database and uploads directory this
 * server is configured with (docs/operations.md "Backup and restore"). Stop every instance first.
 * Everything is checked before anything is touched: the manifest, the checksums of the database and
 * of every upload, the database client and (PostgreSQL) schema and tool versions, and that no
 * process holds the SQLite file (or no other session uses the PostgreSQL database, unless
 * --ignore-connections). Then:
 * - SQLite: the copy is checked (integrity_check, row counts) next to the live file, the live file is
 *   kept as <file>.pre-restore-<timestamp> and the copy renamed over it.
 * - PostgreSQL: `pg_restore --clean --if-exists --single-transaction`: all or nothing.
 * - uploads: staged next to <public>/uploads, the old directory kept as uploads.pre-restore-<timestamp>.
 * Exit code 0 on success, 1 on refusal or failure, 2 on bad arguments.
 */
const fs = require('fs');
const path = require('path');
const common = require('./backup-common');
const { runCli } = require('./cli');

const USAGE = 'Usage: npm run restore -- <backup directory> [--ignore-connections]';

function parseArgs(argv) {
  const options = { source: undefined, ignoreConnections: false, help: false };
  for (const arg of argv) {
    if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg === '--ignore-connections') options.ignoreConnections = true;
    else if (arg.startsWith('-')) throw new Error(`Unknown argument "${arg}".\n${USAGE}`);
    else if (options.source) throw new Error(`One backup directory only.\n${USAGE}`);
    else options.source = arg;
  }
  if (!options.help && !options.source) throw new Error(`Name the backup directory to restore.\n${USAGE}`);
  return options;
}

/** `base`, or `base-2`, `base-3` ...: the first name not taken, so nothing kept aside is ever overwritten. */
function unusedName(base, suffixes = ['']) {
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if (suffixes.every((suffix) => !fs.existsSync(name + suffix))) return name;
  }
}

const refuse = (message) => {
  throw new common.BackupError(message);
};

/** The manifest, after checking the database file and every upload against their checksums. */
function checkBackup(source) {
  if (!fs.existsSync(source) || !fs.statSync(source).isDirectory()) refuse(`${source} is not a directory.`);
  if (source.endsWith('.partial')) refuse(`${source} is an unfinished backup (a backup that was interrupted or is still running).`);
  const manifestFile = path.join(source, common.MANIFEST);
  if (!fs.existsSync(manifestFile)) refuse(`${source} is not a Carnivo backup: it has no ${common.MANIFEST}.`);
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  } catch (error) {
    refuse(`${manifestFile} is corrupt: ${error.message}`);
  }
  if (!manifest || manifest.format !== common.FORMAT) refuse(`${manifestFile} is not a Carnivo backup manifest.`);
  if (manifest.version !== common.FORMAT_VERSION) {
    refuse(`This backup has format version ${manifest.version}; this restore reads version ${common.FORMAT_VERSION}.`);
  }
  const database = manifest.database || {};
  const expectedFile = database.client === 'sqlite' ? common.SQLITE_FILE : database.client === 'postgres' ? common.PG_FILE : null;
  if (!expectedFile || database.file !== expectedFile) refuse(`${manifestFile} names no known database (client "${database.client}").`);
  const databaseFile = path.join(source, expectedFile);
  if (!fs.existsSync(databaseFile)) refuse(`The backup's database file ${databaseFile} is missing.`);
  if (fs.statSync(databaseFile).size !== database.bytes || common.sha256File(databaseFile) !== database.sha256) {
    refuse(`The backup's database file ${databaseFile} is corrupt: its size or checksum differs from the manifest.`);
  }
  const uploads = manifest.uploads || {};
  if (uploads.provider === 'local') {
    for (const file of uploads.files || []) {
      const onDisk = path.join(source, common.UPLOADS, file.path);
      if (path.relative(path.join(source, common.UPLOADS), onDisk).startsWith('..'))
        refuse(`The manifest names a file outside uploads/: ${file.path}`);
      if (!fs.existsSync(onDisk)) refuse(`The backup's upload ${file.path} is missing.`);
      if (fs.statSync(onDisk).size !== file.bytes || common.sha256File(onDisk) !== file.sha256) {
        refuse(`The backup's upload ${file.path} is corrupt: its size or checksum differs from the manifest.`);
      }
    }
  }
  return { manifest, databaseFile };
}

/** Processes other than this one with `file` open (Linux /proc); null where that cannot be checked. */
function processesHolding(file) {
  if (!fs.existsSync('/proc/self/fd')) return null;
  const wanted = new Set([file, `${file}-wal`, `${file}-shm`, `${file}-journal`].filter(fs.existsSync).map((f) => fs.realpathSync(f)));
  const holders = [];
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    if (Number(pid) === process.pid) continue;
    let fds;
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or another user's process
    }
    for (const fd of fds) {
      let target;
      try {
        target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      if (wanted.has(target)) {
        holders.push(Number(pid));
        break;
      }
    }
  }
  return holders;
}

function sqliteCounts(Database, file) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = db.prepare('PRAGMA integrity_check').pluck().all();
    if (integrity.length !== 1 || integrity[0] !== 'ok')
      refuse(`The backup's database fails SQLite's integrity check: ${integrity.slice(0, 5).join('; ')}`);
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
    return counts;
  } finally {
    db.close();
  }
}

function checkCounts(found, expected, where) {
  const differing = Object.keys(common.COUNTED_TABLES).filter((key) => (found[key] ?? null) !== (expected[key] ?? null));
  if (differing.length > 0) {
    refuse(`${where}: ${differing.map((key) => `${key} ${found[key]} (manifest ${expected[key]})`).join(', ')}`);
  }
}

/** Checks the live target and stages the copy; returns a function that swaps it in. */
function prepareSqlite(db, manifest, databaseFile, stamp) {
  const holders = processesHolding(db.filename);
  if (holders === null)
    console.warn('  warning: cannot check here whether a server has the database open: make sure every instance is stopped.');
  else if (holders.length > 0) {
    refuse(`${db.filename} is open in process ${holders.join(', ')}: stop the server (every instance) before restoring.`);
  }
  fs.mkdirSync(path.dirname(db.filename), { recursive: true });
  const staged = `${db.filename}.restoring-${process.pid}`;
  fs.copyFileSync(databaseFile, staged);
  try {
    checkCounts(
      sqliteCounts(require('better-sqlite3'), staged),
      manifest.counts || {},
      "The backup's database does not hold what its manifest says",
    );
  } catch (error) {
    fs.rmSync(staged, { force: true });
    throw error;
  }
  return {
    discard: () => fs.rmSync(staged, { force: true }),
    swap() {
      let kept = null;
      if (fs.existsSync(db.filename)) {
        kept = unusedName(`${db.filename}.pre-restore-${stamp}`, ['', '-wal', '-shm', '-journal']);
        for (const suffix of ['', '-wal', '-shm', '-journal']) {
          if (fs.existsSync(db.filename + suffix)) fs.renameSync(db.filename + suffix, kept + suffix);
        }
      }
      fs.renameSync(staged, db.filename);
      return kept;
    },
  };
}

async function preparePostgres(db, manifest, databaseFile, options) {
  if (manifest.database.schema !== db.schema) {
    refuse(
      `The backup holds schema "${manifest.database.schema}" but this server uses "${db.schema}" (DATABASE_SCHEMA). ` +
        `Set DATABASE_SCHEMA=${manifest.database.schema}, or restore into a new database with that schema name.`,
    );
  }
  const { Client } = require('pg');
  const client = new Client(common.pgClientConfig(db));
  await client.connect();
  try {
    const serverMajor = Math.floor(Number((await client.query('SHOW server_version_num')).rows[0].server_version_num) / 10000);
    const backupMajor = Math.floor(Number(manifest.database.serverVersionNum) / 10000);
    if (backupMajor > serverMajor) refuse(`The backup comes from PostgreSQL ${backupMajor}; this server runs PostgreSQL ${serverMajor}.`);
    const pgRestore = common.pgTool('pg_restore', serverMajor);
    const connection = common.pgToolConnection(db);
    // Reads the whole table of contents: a truncated or foreign file fails here, before anything is touched.
    const toc = common.run(pgRestore.path, ['--list', databaseFile], connection.env);
    if (!toc.split('\n').some((line) => line.includes(` SCHEMA - ${db.schema} `) || line.includes(` TABLE ${db.schema} `))) {
      refuse(`The backup's dump does not hold schema "${db.schema}".`);
    }
    if (!options.ignoreConnections) {
      const others = await client.query(
        'SELECT pid, client_addr, application_name FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = $1',
        ['client backend'],
      );
      if (others.rowCount > 0) {
        const who = others.rows.map(
          (row) => `${row.pid} from ${row.client_addr ?? 'local socket'}${row.application_name ? ` (${row.application_name})` : ''}`,
        );
        refuse(
          `${others.rowCount} other session(s) are connected to database ${db.database}: ${who.join(', ')}. ` +
            'Stop every instance first; if these are other applications sharing the database, add --ignore-connections.',
        );
      }
    }
    return {
      discard() {},
      async restore() {
        // One transaction: on any error nothing of the schema has changed.
        common.run(
          pgRestore.path,
          [
            '--clean',
            '--if-exists',
            '--single-transaction',
            '--exit-on-error',
            '--no-owner',
            '--no-privileges',
            ...connection.args,
            databaseFile,
          ],
          connection.env,
        );
        const verify = new Client(common.pgClientConfig(db));
        await verify.connect();
        try {
          const counts = {};
          for (const [key, table] of Object.entries(common.COUNTED_TABLES)) {
            const exists = await verify.query('SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = $2', [
              db.schema,
              table,
            ]);
            counts[key] =
              exists.rowCount === 0
                ? null
                : Number(
                    (await verify.query(`SELECT count(*) AS n FROM ${common.quoteIdent(db.schema)}.${common.quoteIdent(table)}`)).rows[0].n,
                  );
          }
          checkCounts(counts, manifest.counts || {}, 'After pg_restore the schema does not hold what the manifest says');
        } finally {
          await verify.end();
        }
      },
    };
  } finally {
    await client.end();
  }
}

async function main(options) {
  common.loadServerEnv();
  const started = Date.now();
  const stamp = common.fileStamp();
  const source = common.fromInvocation(options.source);
  const db = common.databaseConfig();
  const uploads = common.uploadsConfig();

  const { manifest, databaseFile } = checkBackup(source);
  if (manifest.database.client !== db.client) {
    refuse(`This backup holds a ${manifest.database.client} database but this server is configured for ${db.client} (DATABASE_CLIENT).`);
  }
  const backupUploads = manifest.uploads || {};
  if (backupUploads.provider === 'local' && uploads.provider !== 'local' && (backupUploads.files || []).length > 0) {
    refuse(
      'This backup holds uploads from local disk but this server stores uploads in S3: copy them into the bucket yourself, or restore with UPLOAD_PROVIDER=local.',
    );
  }
  if (backupUploads.provider === 'local' && !fs.existsSync(uploads.publicDir)) refuse(`${uploads.publicDir} (PUBLIC_DIR) does not exist.`);

  const database =
    db.client === 'sqlite' ? prepareSqlite(db, manifest, databaseFile, stamp) : await preparePostgres(db, manifest, databaseFile, options);

  let stagedUploads = null;
  if (backupUploads.provider === 'local') {
    stagedUploads = `${uploads.dir}.restoring-${process.pid}`;
    try {
      const copied = common.copyTree(path.join(source, common.UPLOADS), stagedUploads);
      const expected = new Map((backupUploads.files || []).map((file) => [file.path, file.sha256]));
      if (copied.length !== expected.size || copied.some((file) => expected.get(file.path) !== file.sha256)) {
        refuse("The backup's uploads/ does not match its manifest (files added, missing or changed).");
      }
    } catch (error) {
      fs.rmSync(stagedUploads, { recursive: true, force: true });
      database.discard();
      throw error;
    }
  }

  // Everything is checked: from here on the live database and uploads change.
  let keptDatabase = null;
  try {
    if (db.client === 'sqlite') keptDatabase = database.swap();
    else await database.restore();
  } catch (error) {
    if (stagedUploads) fs.rmSync(stagedUploads, { recursive: true, force: true });
    database.discard();
    throw error;
  }
  let keptUploads = null;
  if (stagedUploads) {
    if (fs.existsSync(uploads.dir)) {
      keptUploads = unusedName(`${uploads.dir}.pre-restore-${stamp}`);
      fs.renameSync(uploads.dir, keptUploads);
    }
    fs.renameSync(stagedUploads, uploads.dir);
  }

  console.log(`Restored ${source} (taken ${manifest.createdAt})`);
  console.log(`  database: ${db.client === 'sqlite' ? db.filename : `schema ${db.schema} of ${db.database}`}`);
  console.log(
    `  counts: ${Object.entries(manifest.counts || {})
      .map(([key, count]) => `${key} ${count ?? '-'}`)
      .join(', ')}`,
  );
  if (keptDatabase) console.log(`  the previous database is kept as ${keptDatabase}`);
  if (stagedUploads) console.log(`  uploads: ${(backupUploads.files || []).length} files into ${uploads.dir}`);
  else console.log('  uploads: not in the backup (stored in S3 when it was taken): the bucket is unchanged');
  if (keptUploads) console.log(`  the previous uploads are kept as ${keptUploads}`);
  console.log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s; start the server.`);
  return 0;
}

runCli({
  parseArgs,
  usage: USAGE,
  run: main,
  describe: (error) => (error instanceof common.BackupError ? `Restore refused: ${error.message}` : error),
});
