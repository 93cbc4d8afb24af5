import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  PICTURE_MESSAGES,
  PROFILE_PICTURE_MAX_BYTES,
  checkPictureFile,
  reencodePicture,
  sniffImageType,
  type ImageType,
} from '../../src/uploads/picture-image';

/**
 * The image checks of a profile picture without Strapi or HTTP (src/uploads/picture-image.ts), on
 * files as formidable leaves them. Over HTTP, with the request's other rules: upload-hardening.test.ts.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-picture-image-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let written = 0;
function file(bytes: Buffer): string {
  written += 1;
  const filepath = path.join(dir, `upload-${written}`);
  fs.writeFileSync(filepath, bytes);
  return filepath;
}

const image = (format: 'png' | 'jpeg' | 'gif' | 'webp', width = 16, height = 16) =>
  sharp({ create: { width, height, channels: 3, background: '#b22222' } })
    [format]()
    .toBuffer();

const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const framed = Buffer.alloc(body.length + 8);
  framed.writeUInt32BE(data.length, 0);
  body.copy(framed, 4);
  framed.writeUInt32BE(zlib.crc32(body), body.length + 4);
  return framed;
};
/** A black-and-white PNG of width × height whose rows deflate to almost nothing (an image bomb). */
function pngBomb(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(1, 8);
  const rows = zlib.deflateSync(Buffer.alloc((1 + Math.ceil(width / 8)) * height), { level: 9 });
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', rows), chunk('IEND', Buffer.alloc(0))]);
}

const refusal = async (filepath: string) =>
  checkPictureFile(filepath).then(
    () => null,
    (error: Error) => error.message,
  );

describe('sniffImageType', () => {
  it.each([
    ['png', 'image/png'],
    ['jpeg', 'image/jpeg'],
    ['gif', 'image/gif'],
    ['webp', 'image/webp'],
  ] as const)('knows %s by its first bytes', async (format, type) => {
    expect(sniffImageType((await image(format)).subarray(0, 16))).toBe(type);
  });

  it('knows nothing else: SVG, HTML, a bare RIFF, nothing', () => {
    for (const head of ['<svg xmlns="http://www.w3.org/2000/svg">', '<!doctype html>', 'RIFF\0\0\0\0WAVE', '']) {
      expect(sniffImageType(Buffer.from(head))).toBeNull();
    }
  });
});

describe('checkPictureFile', () => {
  it.each(['png', 'jpeg', 'gif', 'webp'] as const)('accepts a %s and names its type', async (format) => {
    expect(await checkPictureFile(file(await image(format)))).toBe(`image/${format}`);
  });

  it('refuses what is not an image, whatever its name: empty, SVG, text, a PNG signature before junk', async () => {
    for (const bytes of [
      Buffer.alloc(0),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      Buffer.from('hello'),
      Buffer.concat([(await image('png')).subarray(0, 8), Buffer.from('<script>alert(1)</script>'.repeat(20))]),
    ]) {
      expect(await refusal(file(bytes))).toBe(PICTURE_MESSAGES.notAnImage);
    }
  });

  it('refuses more than 5 MB, judged by the size formidable reports or the file', async () => {
    const png = await image('png');
    expect(await refusal(file(Buffer.concat([png, Buffer.alloc(PROFILE_PICTURE_MAX_BYTES + 1 - png.length)])))).toBe(
      PICTURE_MESSAGES.tooLarge,
    );
    await expect(checkPictureFile(file(png), PROFILE_PICTURE_MAX_BYTES + 1)).rejects.toThrow(PICTURE_MESSAGES.tooLarge);
  });

  it('refuses image bombs from the header: over 6000 px a side, or over 25 megapixels', async () => {
    for (const [width, height] of [
      [6001, 10],
      [10, 6001],
      [5001, 5000],
      [10_000, 10_000],
    ]) {
      expect(await refusal(file(pngBomb(width, height))), `${width} × ${height}`).toBe(PICTURE_MESSAGES.tooManyPixels);
    }
    expect(await checkPictureFile(file(pngBomb(6000, 10)))).toBe('image/png');
  });
});

describe('reencodePicture', () => {
  it('writes the picture again without metadata, named and typed after its bytes', async () => {
    const tagged = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#123456' } })
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'secret place' } } })
      .toBuffer();
    const picture = { filepath: file(tagged), originalFilename: 'holiday.html', mimetype: 'text/html', type: 'text/html' };
    await reencodePicture(picture, 'image/jpeg');

    const metadata = await sharp(picture.filepath).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 10, height: 20 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    expect(picture).toMatchObject({ originalFilename: 'holiday.jpg', mimetype: 'image/jpeg', type: 'image/jpeg' });
    expect(picture).toHaveProperty('size', fs.statSync(picture.filepath).size);
  });

  it('refuses a file that does not decode, and leaves no second file behind', async () => {
    const cut = (await image('png', 200, 200)).subarray(0, 120);
    const picture = { filepath: file(cut) };
    await expect(reencodePicture(picture, 'image/png' satisfies ImageType)).rejects.toThrow(PICTURE_MESSAGES.notAnImage);
    expect(fs.existsSync(`${picture.filepath}.reencoded`)).toBe(false);
  });
});
