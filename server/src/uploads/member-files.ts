import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { UID } from '../content-types';

/**
 * Which upload files belong to a member (docs/uploads.md, docs/accounts.md).
 *
 * A member's upload is recorded on its own file row: `ownerMemberId` (column owner_member_id), a
 * plain integer added to the upload plugin's file type (extensions/upload/strapi-server.ts) and
 * written by the profile-picture guard in the same transaction that creates the row and links it.
 * It is not a relation: it stays when the picture is replaced (unlinked) and when the user row is
 * deleted some other way (e.g. from the admin panel), so the file can still be told apart from the
 * media library's. Files stored before the column existed have no owner: those still linked to the
 * member are theirs too, unless an admin uploaded them (createdBy set) or other content links them.
 */

export const OWNER_ATTRIBUTE = 'ownerMemberId';

export interface FileRow {
  id: number;
  url: string;
  hash: string;
  ext?: string | null;
  provider: string;
  formats?: Record<string, { url: string; hash?: string; ext?: string }> | null;
  ownerMemberId?: number | null;
  createdBy?: { id: number } | null;
  folder?: { id: number } | null;
  createdAt?: string | Date;
  [field: string]: unknown;
}

const ownersSinceStore = (strapi: Core.Strapi) => strapi.store({ type: 'api', name: 'uploads', key: 'owners-recorded-since' });

/**
 * Notes, once, when this server started recording owners (at bootstrap): an upload without an owner
 * stored before then may be a member's (see orphans.ts), one stored since is not.
 */
export async function noteOwnersRecordedSince(strapi: Core.Strapi): Promise<void> {
  if ((await ownersRecordedSince(strapi)) === null) await ownersSinceStore(strapi).set({ value: new Date().toISOString() });
}

/** When owners started being recorded (ms), or null before the first start that records them. */
export async function ownersRecordedSince(strapi: Core.Strapi): Promise<number | null> {
  const value = Date.parse(String((await ownersSinceStore(strapi).get({})) ?? ''));
  return Number.isNaN(value) ? null : value;
}

export interface FileLink {
  fileId: number;
  relatedId: number;
  relatedType: string;
  field: string | null;
}

interface MorphJoinTable {
  name: string;
  joinColumn: { name: string };
  morphColumn: { idColumn: { name: string }; typeColumn: { name: string } };
}

/** The upload plugin's join table of file ↔ entry links (files_related_mph). */
export function fileLinkTable(strapi: Core.Strapi) {
  const related = strapi.db.metadata.get(UID.file).attributes.related as unknown as { joinTable: MorphJoinTable };
  const { name, joinColumn, morphColumn } = related.joinTable;
  return { name, file: joinColumn.name, relatedId: morphColumn.idColumn.name, relatedType: morphColumn.typeColumn.name, field: 'field' };
}

/** Raw knex on the join table, inside `trx` when given (raw queries do not join Strapi's transaction by themselves). */
function links(strapi: Core.Strapi, trx?: Knex.Transaction) {
  const table = fileLinkTable(strapi);
  const query = strapi.db.getConnection(table.name);
  return { table, query: trx ? query.transacting(trx) : query };
}

const toLink =
  (table: ReturnType<typeof fileLinkTable>) =>
  (row: Record<string, unknown>): FileLink => ({
    fileId: Number(row[table.file]),
    relatedId: Number(row[table.relatedId]),
    relatedType: String(row[table.relatedType]),
    field: (row[table.field] as string | null) ?? null,
  });

/** Every link of these files to any entry. */
export async function linksOfFiles(strapi: Core.Strapi, fileIds: number[], trx?: Knex.Transaction): Promise<FileLink[]> {
  if (fileIds.length === 0) return [];
  const { table, query } = links(strapi, trx);
  const rows = (await query.whereIn(table.file, fileIds).select(table.file, table.relatedId, table.relatedType, table.field)) as Record<
    string,
    unknown
  >[];
  return rows.map(toLink(table));
}

/** Every link of every file (the whole join table). */
export async function allFileLinks(strapi: Core.Strapi, trx?: Knex.Transaction): Promise<FileLink[]> {
  const { table, query } = links(strapi, trx);
  const rows = (await query.select(table.file, table.relatedId, table.relatedType, table.field)) as Record<string, unknown>[];
  return rows.map(toLink(table));
}

/** Links of files to the member's user row (on `field` only, when given). */
export async function linksToMember(
  strapi: Core.Strapi,
  userId: number,
  options: { field?: string; trx?: Knex.Transaction } = {},
): Promise<FileLink[]> {
  const { table, query } = links(strapi, options.trx);
  const where: Record<string, unknown> = { [table.relatedType]: UID.user, [table.relatedId]: userId };
  if (options.field) where[table.field] = options.field;
  const rows = (await query.where(where).select(table.file, table.relatedId, table.relatedType, table.field)) as Record<string, unknown>[];
  return rows.map(toLink(table));
}

/** Removes the links of `fileIds` to the member's user row (the files themselves stay). */
export async function unlinkFromMember(strapi: Core.Strapi, userId: number, fileIds: number[], trx?: Knex.Transaction): Promise<void> {
  if (fileIds.length === 0) return;
  const { table, query } = links(strapi, trx);
  await query
    .where({ [table.relatedType]: UID.user, [table.relatedId]: userId })
    .whereIn(table.file, fileIds)
    .delete();
}

/** Full file rows (formats, hash, provider: what the provider needs to delete every size), with the admin who uploaded them. */
export async function fileRows(strapi: Core.Strapi, where: Record<string, unknown>): Promise<FileRow[]> {
  return (await strapi.db
    .query(UID.file)
    .findMany({ where, populate: { createdBy: { select: ['id'] }, folder: { select: ['id'] } } })) as FileRow[];
}

/**
 * Whether a file is the member's own upload: recorded as theirs, or (stored before owners were
 * recorded) uploaded through the content API (no admin as createdBy) and linked to nothing but them.
 */
export function isMembersOwn(file: FileRow, userId: number, fileLinks: FileLink[]): boolean {
  if (file.ownerMemberId != null) return Number(file.ownerMemberId) === userId;
  if (file.createdBy) return false;
  const mine = fileLinks.filter((link) => link.fileId === file.id);
  return mine.length > 0 && mine.every((link) => link.relatedType === UID.user && link.relatedId === userId);
}

export interface MemberFiles {
  /** Files the member uploaded: remove them (storage and row). */
  own: FileRow[];
  /** Files linked to the member that someone else owns (an admin's media): unlink them only. */
  linkedOnly: FileRow[];
}

/**
 * Every file of a member: those recorded as theirs and those linked to their user row (on `field`
 * only, when given), split into their own uploads and others' files. Call it under the member's
 * lock (security/member-lock.ts) with that transaction.
 */
export async function memberFiles(
  strapi: Core.Strapi,
  userId: number,
  options: { field?: string; trx?: Knex.Transaction } = {},
): Promise<MemberFiles> {
  const linked = await linksToMember(strapi, userId, options);
  const rows = await fileRows(strapi, {
    $or: [{ [OWNER_ATTRIBUTE]: userId }, ...(linked.length ? [{ id: { $in: [...new Set(linked.map((link) => link.fileId))] } }] : [])],
  });
  const everyLink = await linksOfFiles(
    strapi,
    rows.map((row) => row.id),
    options.trx,
  );
  const own = rows.filter((row) => isMembersOwn(row, userId, everyLink));
  return { own, linkedOnly: rows.filter((row) => !own.includes(row)) };
}

/** Removes a file through the upload plugin: every stored size (local disk or S3), then its row and links. */
export async function removeFile(strapi: Core.Strapi, file: FileRow): Promise<void> {
  await strapi.plugin('upload').service('upload').remove(file);
}

/** Storage keys of a file's original and every generated size, as URLs (e.g. /uploads/x.png or https://cdn/x.png). */
export const fileUrls = (file: Pick<FileRow, 'url' | 'formats'>): string[] =>
  [file.url, ...Object.values(file.formats ?? {}).map((format) => format.url)].filter(Boolean);
