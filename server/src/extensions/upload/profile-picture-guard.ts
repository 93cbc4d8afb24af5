import { errors } from '@strapi/utils';
import { UID } from '../../content-types';
import { PROFILE_PICTURE_UPLOAD } from '../../contract/users';
import { OWN_PICTURE } from '../../route-table';
import { UPLOAD_HANDLER } from './route-access';
import { checkPictureFile, reencodePicture, type ImageType, type PictureFile } from '../../uploads/picture-image';
import { createLimiter, type Limiter } from '../../security/limits';
import { refuse } from '../../security/auth-rate-limit';
import { withMemberLock } from '../../security/member-lock';
import { OWNER_ATTRIBUTE, memberFiles, removeFile, unlinkFromMember, type FileRow } from '../../uploads/member-files';
import { holdUploadBarrier } from '../../uploads/interrupted-uploads';
import type { Knex } from 'knex';

/**
 * Guard of POST /api/upload (upload plugin, content API) for logged-in members (see docs/profile.md).
 *
 * Strapi lets anyone holding plugin::upload.content-api.upload put any file onto any entry. Members
 * may only do what the profile page does: one picture onto their own user's profile_picture.
 * - Onto another member's picture: refused by the route's policy (src/policies/own-picture.ts).
 * - refId, ref 'plugin::users-permissions.user' and field 'profile_picture' must be sent; no ?id=
 *   (replacing or editing an existing file), no other form fields.
 * - Exactly one file, which must pass the image checks (src/uploads/picture-image.ts: size, type by
 *   its bytes, image bombs) and is then re-encoded without metadata.
 * - At most security.uploadsPerHour (UPLOAD_LIMIT_PER_HOUR) pictures per member an hour, counted
 *   once the cheap checks pass (so a refused file or an image bomb costs nothing), before the
 *   decode; shared by every instance through Redis when REDIS_URL is set.
 * - One replacement at a time per member across every instance (the member's row lock): the new
 *   picture is stored, linked and recorded as the member's (ownerMemberId), then every other file of
 *   theirs is unlinked and removed (record and every size, on disk or S3), all in one transaction.
 *
 * Requests authenticated with an admin-issued API token are left to Strapi. The temp files of a
 * refused upload are removed by global::body-errors.
 */

const { ValidationError, ForbiddenError, UnauthorizedError } = errors;

export const PICTURE_FIELD = PROFILE_PICTURE_UPLOAD.field;

export const UPLOAD_MESSAGES = {
  onlyProfilePicture:
    'Only a profile picture can be uploaded: send refId (your user id), ref "plugin::users-permissions.user" and field "profile_picture"',
  noReplace: 'Existing files cannot be replaced or edited',
  oneFile: 'Send exactly one picture in the "files" field',
  tooManyUploads: (perHour: number) =>
    `You can upload at most ${perHour} ${perHour === 1 ? 'picture' : 'pictures'} an hour. Please try again later.`,
  unexpectedField: (name: string) => `Field "${name}" is not accepted with a profile picture`,
} as const;

const ALLOWED_BODY_FIELDS = ['refId', 'ref', 'field'];

type UploadedFile = Partial<PictureFile>;

type Ctx = {
  query: Record<string, unknown>;
  request: { body?: unknown; files?: Record<string, UploadedFile | UploadedFile[] | undefined>; path: string; ip: string };
  state: { user?: { id: number | string }; auth?: { strategy?: { name?: string } } };
  status: number;
  body?: unknown;
  set(name: string, value: string): void;
};
type Next = () => Promise<unknown>;

const allFiles = (ctx: Ctx): UploadedFile[] =>
  Object.values(ctx.request.files ?? {}).flatMap((value) => (value ? (Array.isArray(value) ? value : [value]) : []));

interface CheckedPicture {
  file: PictureFile;
  type: ImageType;
}

/** The cheap checks: the request's shape, then the file's (size, type, header dimensions). Nothing is decoded. */
async function checkRequest(ctx: Ctx): Promise<CheckedPicture> {
  if (ctx.query.id !== undefined) throw new ValidationError(UPLOAD_MESSAGES.noReplace);

  const body = (ctx.request.body ?? {}) as Record<string, unknown>;
  const extra = Object.keys(body).filter((key) => !ALLOWED_BODY_FIELDS.includes(key));
  if (extra.length > 0) throw new ValidationError(UPLOAD_MESSAGES.unexpectedField(extra[0]));
  if (body.ref !== UID.user || body.field !== PICTURE_FIELD || body.refId === undefined) {
    throw new ValidationError(UPLOAD_MESSAGES.onlyProfilePicture);
  }

  const fieldNames = Object.keys(ctx.request.files ?? {});
  const files = allFiles(ctx);
  if (files.length !== 1 || fieldNames.length !== 1 || fieldNames[0] !== 'files') {
    throw new ValidationError(UPLOAD_MESSAGES.oneFile);
  }
  const [file] = files;
  if (!file.filepath) throw new ValidationError(UPLOAD_MESSAGES.oneFile);
  return { file: file as PictureFile, type: await checkPictureFile(file.filepath, file.size) };
}

// --- uploads per member an hour --------------------------------------------------------------

interface SecurityConfig {
  uploadsPerHour?: number;
}

let quota: { perHour: number; limiter: Limiter } | undefined;

/** The hourly limiter, or null when security.uploadsPerHour is 0 (no limit). */
function uploadQuota(): { perHour: number; limiter: Limiter } | null {
  const perHour = Math.floor(Number((strapi.config.get('security') as SecurityConfig | undefined)?.uploadsPerHour ?? 10));
  if (!(perHour > 0)) return null;
  if (quota?.perHour !== perHour) {
    quota = { perHour, limiter: createLimiter('profile-picture-uploads', { points: perHour, durationSec: 60 * 60 }) };
  }
  return quota;
}

/** 429 when the member has used up the hour's uploads; counts this one when count is set. */
async function enforceQuota(ctx: Ctx, userId: string, count: boolean): Promise<void> {
  const current = uploadQuota();
  if (!current) return;
  const verdict = count ? await current.limiter.consume(userId) : await current.limiter.peek(userId);
  if (!verdict.allowed) refuse(ctx, 'profile-picture-uploads', verdict.retryAfterSec, UPLOAD_MESSAGES.tooManyUploads(current.perHour));
}

/**
 * Under the member's lock, right after Strapi stored `created` and linked it to their
 * profile_picture: records the member as its owner, then takes every other file of theirs off the
 * picture. Admin media linked to the picture (not the member's upload) is only unlinked. Returns
 * the replaced files of theirs, removed once this transaction committed.
 */
async function replacePicture(userId: number, created: number[], trx: Knex.Transaction): Promise<FileRow[]> {
  await strapi.db.query(UID.file).updateMany({ where: { id: { $in: created } }, data: { [OWNER_ATTRIBUTE]: userId } });
  const { own, linkedOnly } = await memberFiles(strapi, userId, { field: PICTURE_FIELD, trx });
  const replaced = own.filter((file) => !created.includes(file.id));
  const ids = [...replaced, ...linkedOnly].map((file) => file.id).filter((id) => !created.includes(id));
  await unlinkFromMember(strapi, userId, ids, trx);
  return replaced;
}

/**
 * After the commit (files are never deleted in a transaction that may still roll back, which would
 * leave a picture whose files are gone): every size of each replaced picture, from disk or S3, then
 * its row. A removal that fails, or a crash before it, leaves an unlinked file of theirs, removed at
 * the next start (interrupted-uploads.ts), by `npm run uploads:orphans` or with their account.
 */
async function removeReplaced(userId: number, replaced: FileRow[]): Promise<void> {
  for (const file of replaced) {
    try {
      await removeFile(strapi, file);
    } catch (error) {
      strapi.log.error(`[upload] could not remove the replaced profile picture ${file.id} of user ${userId}: ${String(error)}`);
    }
  }
}

/** Route middleware of POST /api/upload (runs after auth and the role permission check). */
export const profilePictureUploadGuard = async (ctx: Ctx, next: Next) => {
  const user = ctx.state.user;
  if (!user) {
    if (ctx.state.auth?.strategy?.name === 'api-token') return next();
    throw new ForbiddenError();
  }
  const userId = String(user.id);

  // Used up: refused before any work. Then the cheap checks, then the attempt is counted (it is
  // about to cost a decode), then the decode and re-encode.
  await enforceQuota(ctx, userId, false);
  const picture = await checkRequest(ctx);
  await enforceQuota(ctx, userId, true);
  await reencodePicture(picture.file, picture.type);

  // One replacement at a time per member, across every instance (the member's row lock): storing,
  // linking, recording the owner and unlinking the replaced pictures commit together.
  const replaced = await withMemberLock(
    strapi,
    Number(user.id),
    async ({ trx, exists }) => {
      if (!exists) {
        // The account was deleted while this request waited.
        throw new UnauthorizedError();
      }
      // Files are written only while no start-up sweep runs (it would take them for an interrupted upload's).
      await holdUploadBarrier(strapi, trx);
      await next();
      if (ctx.status < 200 || ctx.status >= 300) return [];
      const created = (Array.isArray(ctx.body) ? (ctx.body as { id?: unknown }[]) : [])
        .map((file) => Number(file.id))
        .filter(Number.isInteger);
      return created.length > 0 ? replacePicture(Number(user.id), created, trx) : [];
    },
    { whenGone: 'run' },
  );
  await removeReplaced(Number(user.id), replaced);
};

interface RouteLike {
  method: string;
  path: string;
  handler: string;
  config?: { middlewares?: unknown[]; policies?: unknown[]; [key: string]: unknown };
}

/** Adds the policy and the guard to the upload plugin's POST / content-API route (throws if Strapi renamed it). */
export function applyProfilePictureGuard(plugin: { routes: Record<string, unknown> }): void {
  const routes = (plugin.routes['content-api'] as { routes: RouteLike[] } | undefined)?.routes ?? [];
  const route = routes.find((candidate) => candidate.method === 'POST' && candidate.handler === UPLOAD_HANDLER);
  if (!route) throw new Error(`profile-picture-guard: upload route ${UPLOAD_HANDLER} not found`);
  route.config = route.config ?? {};
  // Idempotent: a second Strapi in one process (tests) extends the same route objects again.
  route.config.policies = [...(route.config.policies ?? []).filter((name) => name !== OWN_PICTURE), OWN_PICTURE];
  route.config.middlewares = [
    ...(route.config.middlewares ?? []).filter((existing) => existing !== profilePictureUploadGuard),
    profilePictureUploadGuard,
  ];
}
