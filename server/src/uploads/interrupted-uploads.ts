import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { fileRows } from './member-files';
import { findOrphanUploads, localUploadsDir, removeOrphanUploads, strayDiskFiles } from './orphans';

/**
 * Uploads cut off by a crash (docs/operations.md, "Crashes and restarts"). An upload writes its
 * files to `<public>/uploads`, then its row, in one transaction: a `kill -9` in between rolls the
 * row back and leaves files that no row names. A replaced picture is unlinked in that transaction
 * and removed after it: a kill in between leaves the member's unlinked picture. At start the server
 * removes both.
 *
 * Other instances on the same disk may be uploading at that moment, so on PostgreSQL every upload
 * holds a shared advisory lock for its transaction and the sweep takes it exclusively: while the
 * sweep runs no upload is between its files and its row anywhere, and every unnamed file is a
 * dead upload's. On SQLite there is one process, and the sweep runs before it serves.
 *
 * A directory holding another database's files (a test database on a developer's uploads, say)
 * must not lose them: the first start writes the database's id into `<uploads>/.carnivo-database`,
 * and the sweep runs only where that id is this database's.
 */

/** The advisory lock id of uploads ("carnivo uploads"); any fixed number other locks do not use. */
const UPLOAD_BARRIER_LOCK = '7214311001';

const onPostgres = (strapi: Core.Strapi) => strapi.db.dialect.client === 'postgres';

/** Inside an upload's transaction: holds off the start-up sweep until it commits or rolls back. */
export async function holdUploadBarrier(strapi: Core.Strapi, trx: Knex.Transaction): Promise<void> {
  if (onPostgres(strapi)) await trx.raw('SELECT pg_advisory_xact_lock_shared(?::bigint)', [UPLOAD_BARRIER_LOCK]);
}

/** Runs an upload (files, then row) in a transaction holding the barrier (joins the caller's transaction). */
export async function withUploadBarrier<T>(strapi: Core.Strapi, work: () => Promise<T>): Promise<T> {
  if (!onPostgres(strapi)) return work();
  return strapi.db.transaction(async ({ trx }) => {
    await holdUploadBarrier(strapi, trx);
    return work();
  });
}

const MARKER = '.carnivo-database';
const databaseIdStore = (strapi: Core.Strapi) => strapi.store({ type: 'api', name: 'uploads', key: 'database-id' });

/** Whether `<public>/uploads` holds this database's files (marking it so when it is unmarked). */
async function uploadsBelongHere(strapi: Core.Strapi, uploadsDir: string): Promise<boolean> {
  let databaseId = (await databaseIdStore(strapi).get({})) as string | null;
  if (!databaseId) await databaseIdStore(strapi).set({ value: (databaseId = crypto.randomUUID()) });
  const marker = path.join(uploadsDir, MARKER);
  const read = () =>
    fs.readFile(marker, 'utf8').then(
      (text) => text.trim(),
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      },
    );
  let owner = await read();
  if (owner === null) {
    await fs.writeFile(marker, `${databaseId}\n`, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    owner = await read();
  }
  if (owner === databaseId) return true;
  strapi.log.warn(`[upload] ${uploadsDir} holds another database's uploads (${MARKER}): interrupted uploads are not swept`);
  return false;
}

/**
 * Removes members' replaced pictures left behind (rows recorded as a member's that are not their
 * picture: exact, unlike the command's other kinds of orphans), then the files of uploads that died
 * between writing their files and committing their row; returns the names removed from disk.
 */
export async function sweepInterruptedUploads(strapi: Core.Strapi): Promise<string[]> {
  const orphans = await findOrphanUploads(strapi, { graceMinutes: Number.POSITIVE_INFINITY });
  const replaced = orphans.files.filter((file) => file.memberId !== null);
  if (replaced.length > 0) {
    const result = await removeOrphanUploads(strapi, { ...orphans, files: replaced, diskFiles: [] });
    strapi.log.warn(`[upload] removed ${result.files.length} replaced picture(s) left behind: ${result.files.join(', ')}`);
    for (const failure of result.failed) strapi.log.error(`[upload] could not remove ${failure.what}: ${failure.error}`);
  }

  const uploadsDir = localUploadsDir(strapi);
  const exists = await fs.stat(uploadsDir).then(
    (stat) => stat.isDirectory(),
    () => false,
  );
  if (!exists || !(await uploadsBelongHere(strapi, uploadsDir))) return [];
  const removed = await strapi.db.transaction(async ({ trx }) => {
    if (onPostgres(strapi)) await trx.raw('SELECT pg_advisory_xact_lock(?::bigint)', [UPLOAD_BARRIER_LOCK]);
    const { diskFiles } = await strayDiskFiles(strapi, await fileRows(strapi, {}), 0, Date.now());
    for (const file of diskFiles) await fs.rm(file.path, { force: true });
    return diskFiles.map((file) => file.name);
  });
  if (removed.length > 0) {
    strapi.log.warn(
      `[upload] removed ${removed.length} file(s) of uploads interrupted before their record was saved: ${removed.join(', ')}`,
    );
  }
  return removed;
}
