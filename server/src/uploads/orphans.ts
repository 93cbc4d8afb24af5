import fs from 'node:fs/promises';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { UID } from '../content-types';
import { withMemberLock } from '../security/member-lock';
import {
  allFileLinks,
  fileRows,
  fileUrls,
  linksOfFiles,
  ownersRecordedSince,
  removeFile,
  type FileLink,
  type FileRow,
} from './member-files';

/**
 * Orphaned uploads (docs/uploads.md; run by `npm run uploads:orphans`,
 * scripts/uploads-orphans.js).
 *
 * An orphan is:
 * - a file row recorded as a member's upload (ownerMemberId) that is not that member's current
 *   picture (a replaced picture left behind), or whose member no longer exists;
 * - a file row stored before owners were recorded (ownersRecordedSince), uploaded through the
 *   content API (in its "API Uploads" folder, no admin as createdBy) and linked to nothing: what the
 *   old code left when it replaced a picture without removing it (Strapi unlinks the replaced one);
 * - a file on local disk (`<public>/uploads`) that no file row names, older than the grace period
 *   (an upload in progress writes its files before its row).
 *
 * Never an orphan: a file an admin uploaded (createdBy set), anything content links to, a file
 * without an owner in any other folder or stored since owners are recorded (e.g. an API token's
 * upload: the media library keeps files unlinked on purpose).
 * Orphan rows are removed through the upload plugin (every size, local disk or S3, then the row),
 * each under its member's lock after checking again that it is still an orphan.
 */

export interface OrphanFile {
  id: number;
  url: string;
  /** The original and every generated size. */
  urls: string[];
  provider: string;
  /** The member it was uploaded by or linked to, when known. */
  memberId: number | null;
  reason: string;
}

export interface StrayDiskFile {
  name: string;
  path: string;
  bytes: number;
  modifiedAt: string;
}

export interface OrphanReport {
  uploadsDir: string;
  graceMinutes: number;
  files: OrphanFile[];
  diskFiles: StrayDiskFile[];
  /** What was looked at and kept. */
  kept: { files: number; unlinkedMedia: number; recentDiskFiles: number };
}

export interface RemovalResult {
  files: number[];
  diskFiles: string[];
  /** Rows that were orphans when reported but are not any more (e.g. linked again meanwhile). */
  skipped: number[];
  failed: { what: string; error: string }[];
}

const DEFAULT_GRACE_MINUTES = 10;

/** Media fields of the user type (profile_picture). */
const userMediaFields = (strapi: Core.Strapi): string[] =>
  Object.entries(strapi.getModel(UID.user).attributes)
    .filter(([, attribute]) => attribute.type === 'media')
    .map(([name]) => name);

/** For each user id: whether the user exists, and the file ids their media fields show. */
async function currentMedia(strapi: Core.Strapi, userIds: number[]): Promise<Map<number, Set<number>>> {
  const fields = userMediaFields(strapi);
  const shown = new Map<number, Set<number>>();
  if (userIds.length === 0) return shown;
  const users = (await strapi.db.query(UID.user).findMany({
    where: { id: { $in: userIds } },
    select: ['id'],
    populate: Object.fromEntries(fields.map((field) => [field, { select: ['id'] }])),
  })) as Record<string, unknown>[];
  for (const user of users) {
    const ids = new Set<number>();
    for (const field of fields) {
      const value = user[field] as { id: number } | { id: number }[] | null | undefined;
      for (const file of value ? (Array.isArray(value) ? value : [value]) : []) ids.add(file.id);
    }
    shown.set(Number(user.id), ids);
  }
  return shown;
}

/** What tells a legacy upload apart: the content API's upload folder and when owners started being recorded. */
export interface LegacyContext {
  apiFolderId: number | null;
  ownersRecordedSince: number | null;
}

/** Why `file` is an orphan, or null when it stays. */
function orphanReason(
  file: FileRow,
  links: FileLink[],
  shown: Map<number, Set<number>>,
  legacy: LegacyContext,
): { memberId: number | null; reason: string } | null {
  const owner = file.ownerMemberId == null ? null : Number(file.ownerMemberId);
  if (owner !== null) {
    const pictures = shown.get(owner);
    if (!pictures) return { memberId: owner, reason: `uploaded by member ${owner}, whose account no longer exists` };
    if (!pictures.has(file.id)) return { memberId: owner, reason: `member ${owner}'s replaced picture, no longer their picture` };
    return null;
  }
  // No owner: an admin's upload, anything linked, or anything in another folder stays. Left: a
  // content-API upload linked to nothing, stored before uploads recorded their member. Members'
  // pictures were the only content-API uploads the server accepted from members, and Strapi unlinks
  // a replaced one, so this is a picture the old code replaced without removing it.
  if (file.createdBy || links.some((link) => link.fileId === file.id)) return null;
  const createdAt = Date.parse(String(file.createdAt ?? ''));
  const folderId = (file.folder as { id?: number } | null | undefined)?.id ?? null;
  if (legacy.apiFolderId === null || folderId !== legacy.apiFolderId) return null;
  if (legacy.ownersRecordedSince === null || !(createdAt < legacy.ownersRecordedSince)) return null;
  return {
    memberId: null,
    reason: 'a content-API upload stored before uploads recorded their member, linked to nothing (a replaced profile picture)',
  };
}

/** The "API Uploads" folder (where the content API stores uploads) and when owners started being recorded. */
async function legacyContext(strapi: Core.Strapi): Promise<LegacyContext> {
  const folder = (await strapi.store({ type: 'plugin', name: 'upload', key: 'api-folder' }).get({})) as { id?: number } | null;
  return { apiFolderId: folder?.id ?? null, ownersRecordedSince: await ownersRecordedSince(strapi) };
}

/** The upload directory of the local provider: `<public>/uploads`. */
export const localUploadsDir = (strapi: Core.Strapi) => path.join(strapi.dirs.static.public, 'uploads');

/** File names a row stores on local disk (`<hash><ext>` of the original and each size, and the names in their URLs). */
function localNames(file: FileRow): string[] {
  const names = fileUrls(file)
    .filter((url) => url.startsWith('/uploads/'))
    .map((url) => decodeURIComponent(url.slice('/uploads/'.length).split(/[?#]/)[0]));
  if (file.hash) names.push(`${file.hash}${file.ext ?? ''}`);
  for (const format of Object.values(file.formats ?? {})) if (format.hash) names.push(`${format.hash}${format.ext ?? ''}`);
  return names;
}

const describe = (file: FileRow, found: { memberId: number | null; reason: string }): OrphanFile => ({
  id: file.id,
  url: file.url,
  urls: fileUrls(file),
  provider: file.provider,
  memberId: found.memberId,
  reason: found.reason,
});

/** Files in `<public>/uploads` that none of `rows` names, by name; those younger than the grace period are only counted. */
export async function strayDiskFiles(
  strapi: Core.Strapi,
  rows: FileRow[],
  graceMinutes: number,
  now: number,
): Promise<{ diskFiles: StrayDiskFile[]; recentDiskFiles: number }> {
  const uploadsDir = localUploadsDir(strapi);
  const named = new Set(rows.flatMap(localNames));
  const diskFiles: StrayDiskFile[] = [];
  let recentDiskFiles = 0;
  const entries = await fs.readdir(uploadsDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  for (const entry of entries) {
    if (!entry.isFile() || entry.name.startsWith('.') || named.has(entry.name)) continue;
    const filePath = path.join(uploadsDir, entry.name);
    const stat = await fs.stat(filePath);
    if (now - stat.mtimeMs < graceMinutes * 60_000) {
      recentDiskFiles += 1;
      continue;
    }
    diskFiles.push({ name: entry.name, path: filePath, bytes: stat.size, modifiedAt: stat.mtime.toISOString() });
  }
  diskFiles.sort((a, b) => a.name.localeCompare(b.name));
  return { diskFiles, recentDiskFiles };
}

/** Finds the orphaned uploads; removes nothing. */
export async function findOrphanUploads(strapi: Core.Strapi, options: { graceMinutes?: number; now?: number } = {}): Promise<OrphanReport> {
  const graceMinutes = options.graceMinutes ?? DEFAULT_GRACE_MINUTES;
  const now = options.now ?? Date.now();
  const rows = await fileRows(strapi, {});
  const links = await allFileLinks(strapi);
  const memberIds = new Set<number>();
  for (const row of rows) if (row.ownerMemberId != null) memberIds.add(Number(row.ownerMemberId));
  for (const link of links) if (link.relatedType === UID.user) memberIds.add(link.relatedId);
  const shown = await currentMedia(strapi, [...memberIds]);
  const legacy = await legacyContext(strapi);

  const files: OrphanFile[] = [];
  let unlinkedMedia = 0;
  for (const row of rows) {
    const found = orphanReason(row, links, shown, legacy);
    if (found) files.push(describe(row, found));
    else if (row.ownerMemberId == null && !links.some((link) => link.fileId === row.id)) unlinkedMedia += 1;
  }

  const { diskFiles, recentDiskFiles } = await strayDiskFiles(strapi, rows, graceMinutes, now);

  return {
    uploadsDir: localUploadsDir(strapi),
    graceMinutes,
    files,
    diskFiles,
    kept: { files: rows.length - files.length, unlinkedMedia, recentDiskFiles },
  };
}

/** Is this row (read again inside `trx`) still an orphan? Returns the row to remove, or null. */
async function stillOrphan(strapi: Core.Strapi, id: number, trx: Knex.Transaction): Promise<FileRow | null> {
  const [row] = await fileRows(strapi, { id });
  if (!row) return null;
  const links = await linksOfFiles(strapi, [id], trx);
  const memberIds = [
    ...new Set([
      ...(row.ownerMemberId == null ? [] : [Number(row.ownerMemberId)]),
      ...links.filter((link) => link.relatedType === UID.user).map((link) => link.relatedId),
    ]),
  ];
  return orphanReason(row, links, await currentMedia(strapi, memberIds), await legacyContext(strapi)) ? row : null;
}

/**
 * Removes what `report` found: each orphan row under its member's lock, once it is checked to be
 * an orphan still (storage of every size, then the row and its links), then the stray disk files.
 */
export async function removeOrphanUploads(strapi: Core.Strapi, report: OrphanReport): Promise<RemovalResult> {
  const result: RemovalResult = { files: [], diskFiles: [], skipped: [], failed: [] };
  const provider = (strapi.config.get('plugin::upload') as { provider?: string }).provider;
  const uploadsDir = localUploadsDir(strapi);

  for (const orphan of report.files) {
    try {
      const removal = async (trx: Knex.Transaction) => {
        const row = await stillOrphan(strapi, orphan.id, trx);
        if (!row) return false;
        await removeFile(strapi, row);
        // Stored on local disk while uploads now go elsewhere: the upload plugin only deletes
        // through the current provider, so its files are deleted here.
        if (row.provider === 'local' && provider !== 'local') {
          for (const name of localNames(row)) await fs.rm(path.join(uploadsDir, path.basename(name)), { force: true });
        }
        return true;
      };
      // A member's file under their lock, so it cannot become their picture meanwhile.
      const removed =
        orphan.memberId === null
          ? await strapi.db.transaction(({ trx }) => removal(trx))
          : await withMemberLock(strapi, orphan.memberId, ({ trx }) => removal(trx), { whenGone: 'run' });
      (removed ? result.files : result.skipped).push(orphan.id);
    } catch (error) {
      result.failed.push({ what: `file ${orphan.id} (${orphan.url})`, error: String(error) });
    }
  }

  // Named by no row now either (a row created since the report keeps its files).
  const named = new Set((await fileRows(strapi, {})).flatMap(localNames));
  for (const file of report.diskFiles) {
    if (named.has(file.name)) continue;
    try {
      await fs.rm(file.path, { force: true });
      result.diskFiles.push(file.name);
    } catch (error) {
      result.failed.push({ what: file.path, error: String(error) });
    }
  }
  return result;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The report as printed by the command. */
export function formatReport(report: OrphanReport, dryRun: boolean): string {
  const lines = [`Orphaned uploads${dryRun ? ' (dry run: nothing is removed)' : ''}:`];
  for (const file of report.files) {
    const sizes = file.urls.length - 1;
    lines.push(
      `  file ${file.id} ${file.url}${sizes > 0 ? ` (+${sizes} size${sizes === 1 ? '' : 's'})` : ''} [${file.provider}]: ${file.reason}`,
    );
  }
  for (const file of report.diskFiles) {
    lines.push(`  disk ${file.path} (${kb(file.bytes)}, ${file.modifiedAt}): no file row names it`);
  }
  if (report.files.length + report.diskFiles.length === 0) lines.push('  none');
  lines.push(
    `${report.files.length} orphaned file row(s), ${report.diskFiles.length} stray file(s) on disk in ${report.uploadsDir}.`,
    `Kept: ${report.kept.files} file row(s) in use or in the media library (${report.kept.unlinkedMedia} unlinked media-library file(s)), ` +
      `${report.kept.recentDiskFiles} unnamed disk file(s) younger than ${report.graceMinutes} min (maybe an upload in progress).`,
  );
  return lines.join('\n');
}

export function formatResult(result: RemovalResult): string {
  const lines = [`Removed ${result.files.length} file row(s) with their stored files and ${result.diskFiles.length} stray disk file(s).`];
  if (result.skipped.length)
    lines.push(`Skipped ${result.skipped.length} file row(s) that are no longer orphans: ${result.skipped.join(', ')}.`);
  for (const failure of result.failed) lines.push(`Failed: ${failure.what}: ${failure.error}`);
  return lines.join('\n');
}
