import fs from 'node:fs/promises';
import path from 'node:path';
import { errors } from '@strapi/utils';
// The upload plugin's own sharp (@strapi/upload depends on this exact version).
import sharp from 'sharp';

/**
 * The image checks of a profile picture (docs/profile.md), on its temp file; no Strapi, no request:
 * - at most PROFILE_PICTURE_MAX_BYTES, and its bytes must be PNG, JPEG, GIF or WebP (judged by the
 *   magic number, never by the name or the declared type; SVG is refused);
 * - image bombs: the dimensions are read from the header (nothing decoded) and the picture is refused
 *   beyond PICTURE_MAX_SIDE px a side or PICTURE_MAX_PIXELS in all (every frame of an animation
 *   counts). Every sharp call also carries limitInputPixels;
 * - reencodePicture decodes and re-encodes it: EXIF orientation applied, then written in the same
 *   format without any metadata (EXIF, GPS, XMP, IPTC, ICC); an animated GIF or WebP keeps its first
 *   frame. A file that does not decode is refused.
 * A refusal is a ValidationError (400) with the message the member sees.
 */

const { ValidationError } = errors;

export const PROFILE_PICTURE_MAX_BYTES = 5 * 1024 * 1024;
/** Longest side, in pixels, of a profile picture. */
export const PICTURE_MAX_SIDE = 6000;
/** Pixels of a profile picture, all frames of an animation together. */
export const PICTURE_MAX_PIXELS = 25_000_000;

export const PICTURE_MESSAGES = {
  notAnImage: 'Only PNG, JPEG, GIF or WebP images can be uploaded',
  tooLarge: 'The picture must be 5 MB or smaller',
  tooManyPixels: 'The picture must be at most 6000 pixels on a side and 25 megapixels in all',
} as const;

/** The image type of a file's first bytes, or null when it is none of PNG, JPEG, GIF, WebP. */
export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

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

/** The cheap checks of a picture file: its size, its type by its bytes, its header's dimensions. Nothing is decoded. */
export async function checkPictureFile(filepath: string, size?: number): Promise<ImageType> {
  const bytes = size ?? (await fs.stat(filepath)).size;
  if (bytes > PROFILE_PICTURE_MAX_BYTES) throw new ValidationError(PICTURE_MESSAGES.tooLarge);
  if (bytes === 0) throw new ValidationError(PICTURE_MESSAGES.notAnImage);

  const type = sniffImageType(await readHead(filepath));
  if (!type) throw new ValidationError(PICTURE_MESSAGES.notAnImage);
  await checkDimensions(filepath, type);
  return type;
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
      throw new ValidationError(exceedsPixelLimit(error) ? PICTURE_MESSAGES.tooManyPixels : PICTURE_MESSAGES.notAnImage);
    });
  const { width, height, format } = metadata;
  if (format !== SHARP_FORMATS[type] || !width || !height) throw new ValidationError(PICTURE_MESSAGES.notAnImage);
  // height is one frame's; an animation decodes every frame.
  const frames = Math.max(1, metadata.pages ?? 1);
  if (width > PICTURE_MAX_SIDE || height > PICTURE_MAX_SIDE || width * height * frames > PICTURE_MAX_PIXELS) {
    throw new ValidationError(PICTURE_MESSAGES.tooManyPixels);
  }
}

/** The uploaded file as Strapi's upload service reads it (formidable's temp file). */
export interface PictureFile {
  filepath: string;
  size?: number;
  mimetype?: string | null;
  type?: string | null;
  originalFilename?: string | null;
}

/**
 * Decodes the picture (which also proves it is an image, not a header glued onto something else)
 * and writes it back over the temp file in the same format without metadata: EXIF orientation
 * applied, then no EXIF (GPS), XMP, IPTC or ICC profile (sharp writes none unless asked). Animated
 * GIF and WebP keep their first frame. Strapi then stores, sizes and serves this file.
 */
export async function reencodePicture(file: PictureFile, type: ImageType): Promise<void> {
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
    throw new ValidationError(exceedsPixelLimit(error) ? PICTURE_MESSAGES.tooManyPixels : PICTURE_MESSAGES.notAnImage);
  }
  // A picture that grows past the limit once re-encoded (rare: e.g. a palette PNG written in full colour).
  if ((file.size ?? 0) > PROFILE_PICTURE_MAX_BYTES) throw new ValidationError(PICTURE_MESSAGES.tooLarge);

  // Stored and served as what the bytes are, whatever the browser declared: the type, and the
  // extension the file gets on disk (a PNG named x.html would otherwise be served as HTML).
  file.mimetype = type;
  file.type = type;
  const name = path.basename(file.originalFilename || 'picture').replace(/\.[^.]*$/, '') || 'picture';
  file.originalFilename = `${name}${EXTENSIONS[type]}`;
}
