import fs from 'node:fs/promises';
import path from 'node:path';
import { errors } from '@strapi/utils';
import { UID } from '../../content-types';
import { PROFILE_PICTURE_UPLOAD } from '../../contract/users';
// The upload plugin's own sharp (@strapi/upload depends on this exact version).
import sharp from 'sharp';
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
 * - refId must be the caller's id, ref 'plugin::users-permissions.user', field 'profile_picture';
 *   no ?id= (replacing or editing an existing file), no other form fields.
 * - Exactly one file, at most PROFILE_PICTURE_MAX_BYTES, and its bytes must be PNG, JPEG, GIF or
 *   WebP (judged by the magic number, never by the name or the declared type; SVG is refused).
 * - Image bombs: the dimensions are read from the header (nothing decoded) and the picture is
 *   refused beyond PICTURE_MAX_SIDE px a side or PICTURE_MAX_PIXELS in all (every frame of an
 *   animation counts). Every sharp call also carries limitInputPixels.
 * - At most security.uploadsPerHour (UPLOAD_LIMIT_PER_HOUR) pictures per member an hour, counted
 *   once the cheap checks above pass (so a refused file or an image bomb costs nothing), before the
 *   decode; shared by every instance through Redis when REDIS_URL is set.
 * - The picture is decoded and re-encoded before Strapi stores it: EXIF orientation applied, then
 *   written in the same format without any metadata (EXIF, GPS, XMP, IPTC, ICC); an animated GIF or
 *   WebP keeps its first frame. A file that does not decode is refused.
 * - One replacement at a time per member across every instance (the member's row lock): the new
 *   picture is stored, linked and recorded as the member's (ownerMemberId), then every other file of
 *   theirs is unlinked and removed (record and every size, on disk or S3), all in one transaction.
 *
 * Requests authenticated with an admin-issued API token are left to Strapi.
 */

// PolicyError: a 403 whose message reaches the client (Strapi turns a plain ForbiddenError into 'Forbidden').
const { ValidationError, PolicyError, ForbiddenError, UnauthorizedError } = errors;

export const PICTURE_FIELD = PROFILE_PICTURE_UPLOAD.field;
export const PROFILE_PICTURE_MAX_BYTES = 5 * 1024 * 1024;

export const UPLOAD_MESSAGES = {
  notYours: 'You can only change your own profile picture',
  onlyProfilePicture:
    'Only a profile picture can be uploaded: send refId (your user id), ref "plugin::users-permissions.user" and field "profile_picture"',
  noReplace: 'Existing files cannot be replaced or edited',
  oneFile: 'Send exactly one picture in the "files" field',
  notAnImage: 'Only PNG, JPEG, GIF or WebP images can be uploaded',
  tooLarge: 'The picture must be 5 MB or smaller',
  tooManyPixels: 'The picture must be at most 6000 pixels on a side and 25 megapixels in all',
  tooManyUploads: (perHour: number) =>
    `You can upload at most ${perHour} ${perHour === 1 ? 'picture' : 'pictures'} an hour. Please try again later.`,
  unexpectedField: (name: string) => `Field "${name}" is not accepted with a profile picture`,
} as const;

/** Longest side, in pixels, of a profile picture. */
export const PICTURE_MAX_SIDE = 6000;
/** Pixels of a profile picture, all frames of an animation together. */
export const PICTURE_MAX_PIXELS = 25_000_000;

const ALLOWED_BODY_FIELDS = ['refId', 'ref', 'field'];

const EXTENSIONS: Record<ImageType, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
};

/** sharp's name of each accepted type (metadata().format). */
const SHARP_FORMATS: Record<ImageType, 'png' | 'jpeg' | 'gif' | 'webp'> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

interface UploadedFile {
  filepath?: string;
  size?: number;
  mimetype?: string | null;
  type?: string | null;
  originalFilename?: string | null;
}

type Ctx = {
  query: Record<string, unknown>;
  request: { body?: unknown; files?: Record<string, UploadedFile | UploadedFile[] | undefined>; path: string; ip: string };
  state: { user?: { id: number | string }; auth?: { strategy?: { name?: string } } };
  status: number;
  body?: unknown;
  set(name: string, value: string): void;
};
type Next = () => Promise<unknown>;

/** The image type of a file's first bytes, or null when it is none of PNG, JPEG, GIF, WebP. */
export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export function sniffImageType(head: Buffer): ImageType | null {
  const starts = (bytes: number[], offset = 0) => bytes.every((byte, i) => head[offset + i] === byte);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  const ascii = head.subarray(0, 12).toString('latin1');
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return 'image/gif';
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

async function readHead(file: string, length = 16): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const allFiles = (ctx: Ctx): UploadedFile[] =>
  Object.values(ctx.request.files ?? {}).flatMap((value) => (value ? (Array.isArray(value) ? value : [value]) : []));

/** Temp files of a refused request (Strapi's body middleware only cleans up after a success). */
async function discardTempFiles(ctx: Ctx): Promise<void> {
  await Promise.all(allFiles(ctx).map((file) => (file.filepath ? fs.rm(file.filepath, { force: true }) : undefined)));
}

interface CheckedPicture {
  file: UploadedFile & { filepath: string };
  type: ImageType;
}

/** The cheap checks: the request's shape, the file's size, type and header dimensions. Nothing is decoded. */
async function checkRequest(ctx: Ctx, userId: string): Promise<CheckedPicture> {
  if (ctx.query.id !== undefined) throw new ValidationError(UPLOAD_MESSAGES.noReplace);

  const body = (ctx.request.body ?? {}) as Record<string, unknown>;
  const extra = Object.keys(body).filter((key) => !ALLOWED_BODY_FIELDS.includes(key));
  if (extra.length > 0) throw new ValidationError(UPLOAD_MESSAGES.unexpectedField(extra[0]));
  if (body.ref !== UID.user || body.field !== PICTURE_FIELD || body.refId === undefined) {
    throw new ValidationError(UPLOAD_MESSAGES.onlyProfilePicture);
  }
  if (String(body.refId) !== userId) throw new PolicyError(UPLOAD_MESSAGES.notYours);

  const fieldNames = Object.keys(ctx.request.files ?? {});
  const files = allFiles(ctx);
  if (files.length !== 1 || fieldNames.length !== 1 || fieldNames[0] !== 'files') {
    throw new ValidationError(UPLOAD_MESSAGES.oneFile);
  }
  const [file] = files;
  if (!file.filepath) throw new ValidationError(UPLOAD_MESSAGES.oneFile);
  const size = file.size ?? (await fs.stat(file.filepath)).size;
  if (size > PROFILE_PICTURE_MAX_BYTES) throw new ValidationError(UPLOAD_MESSAGES.tooLarge);
  if (size === 0) throw new ValidationError(UPLOAD_MESSAGES.notAnImage);

  const type = sniffImageType(await readHead(file.filepath));
  if (!type) throw new ValidationError(UPLOAD_MESSAGES.notAnImage);
  await checkDimensions(file.filepath, type);
  return { file: file as CheckedPicture['file'], type };
}

const exceedsPixelLimit = (error: unknown) => error instanceof Error && /pixel limit/i.test(error.message);

/**
 * Image bombs (a few KB that decode to gigabytes): the dimensions come from the header only
 * (sharp's metadata() decodes no pixel data), before anything is decoded.
 */
async function checkDimensions(filepath: string, type: ImageType): Promise<void> {
  const metadata = await sharp(filepath, { limitInputPixels: PICTURE_MAX_PIXELS })
    .metadata()
    .catch((error: unknown) => {
      // sharp refuses a header whose one frame is already over limitInputPixels.
      throw new ValidationError(exceedsPixelLimit(error) ? UPLOAD_MESSAGES.tooManyPixels : UPLOAD_MESSAGES.notAnImage);
    });
  const { width, height, format } = metadata;
  if (format !== SHARP_FORMATS[type] || !width || !height) throw new ValidationError(UPLOAD_MESSAGES.notAnImage);
  // height is one frame's; an animation decodes every frame.
  const frames = Math.max(1, metadata.pages ?? 1);
  if (width > PICTURE_MAX_SIDE || height > PICTURE_MAX_SIDE || width * height * frames > PICTURE_MAX_PIXELS) {
    throw new ValidationError(UPLOAD_MESSAGES.tooManyPixels);
  }
}

/**
 * Decodes the picture (which also proves it is an image, not a header glued onto something else)
 * and writes it back over the temp file in the same format without metadata: EXIF orientation
 * applied, then no EXIF (GPS), XMP, IPTC or ICC profile (sharp writes none unless asked). Animated
 * GIF and WebP keep their first frame. Strapi then stores, sizes and serves this file.
 */
async function reencode({ file, type }: CheckedPicture): Promise<void> {
  const output = `${file.filepath}.reencoded`;
  try {
    const image = sharp(file.filepath, { limitInputPixels: PICTURE_MAX_PIXELS, pages: 1 }).rotate();
    if (type === 'image/png') image.png();
    else if (type === 'image/jpeg') image.jpeg({ quality: 90 });
    else if (type === 'image/gif') image.gif();
    else image.webp({ quality: 90 });
    const info = await image.toFile(output);
    await fs.rename(output, file.filepath);
    file.size = info.size;
  } catch (error) {
    await fs.rm(output, { force: true });
    throw new ValidationError(exceedsPixelLimit(error) ? UPLOAD_MESSAGES.tooManyPixels : UPLOAD_MESSAGES.notAnImage);
  }
  // A picture that grows past the limit once re-encoded (rare: e.g. a palette PNG written in full colour).
  if ((file.size ?? 0) > PROFILE_PICTURE_MAX_BYTES) throw new ValidationError(UPLOAD_MESSAGES.tooLarge);

  // Stored and served as what the bytes are, whatever the browser declared: the type, and the
  // extension the file gets on disk (a PNG named x.html would otherwise be served as HTML).
  file.mimetype = type;
  file.type = type;
  const name = path.basename(file.originalFilename || 'picture').replace(/\.[^.]*$/, '') || 'picture';
  file.originalFilename = `${name}${EXTENSIONS[type]}`;
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
    await discardTempFiles(ctx);
    throw new ForbiddenError();
  }
  const userId = String(user.id);

  try {
    // Used up: refused before any work. Then the cheap checks, then the attempt is counted (it is
    // about to cost a decode), then the decode and re-encode.
    await enforceQuota(ctx, userId, false);
    const picture = await checkRequest(ctx, userId);
    await enforceQuota(ctx, userId, true);
    await reencode(picture);
  } catch (error) {
    await discardTempFiles(ctx);
    throw error;
  }

  // One replacement at a time per member, across every instance (the member's row lock): storing,
  // linking, recording the owner and unlinking the replaced pictures commit together.
  const replaced = await withMemberLock(
    strapi,
    Number(user.id),
    async ({ trx, exists }) => {
      if (!exists) {
        // The account was deleted while this request waited.
        await discardTempFiles(ctx);
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
  config?: { middlewares?: unknown[]; [key: string]: unknown };
}

/** Adds the guard to the upload plugin's POST / content-API route (throws if Strapi renamed it). */
export function applyProfilePictureGuard(plugin: { routes: Record<string, unknown> }): void {
  const routes = (plugin.routes['content-api'] as { routes: RouteLike[] } | undefined)?.routes ?? [];
  const route = routes.find((candidate) => candidate.method === 'POST' && candidate.handler === 'content-api.upload');
  if (!route) throw new Error('profile-picture-guard: upload route content-api.upload not found');
  route.config = route.config ?? {};
  route.config.middlewares = [...(route.config.middlewares ?? []), profilePictureUploadGuard];
}
