// First: every temp file of this process goes to a directory of its own (see the helper).
import { ORIGINAL_TMPDIR, REQUEST_TMPDIR, formidableUploadDir, leftoverTempFiles, removeRequestTmpdir } from '../helpers/isolated-tmpdir';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { boot, type TestApp } from '../helpers/app';
import type { Member } from '../helpers/members';
import { request } from '../helpers/strapi';
import type { ApiError } from '../helpers/types';

const require = createRequire(import.meta.url);
const sharp = require('sharp') as typeof import('sharp').default;

/**
 * Profile picture hardening (docs/profile.md): image bombs refused from their header, pictures
 * re-encoded without metadata, and at most UPLOAD_LIMIT_PER_HOUR (3 here) uploads per member an hour.
 * Every refusal re-reads the member's picture, the file rows and the temp directory.
 */

const USERS = 'plugin::users-permissions.user';
const FILES = 'plugin::upload.file';
const PER_HOUR = 3;
const TOO_MANY_PIXELS = 'The picture must be at most 6000 pixels on a side and 25 megapixels in all';
const NOT_AN_IMAGE = 'Only PNG, JPEG, GIF or WebP images can be uploaded';

let app: TestApp;

interface MediaFile {
  id: number;
  url: string;
  mime: string;
  width: number;
  height: number;
  formats: Record<string, { url: string }> | null;
}
type Picture = { bytes: Buffer; name: string; type: string };

const publicDir = () => app.strapi.dirs.static.public;
const diskPaths = (file: MediaFile) =>
  [file.url, ...Object.values(file.formats ?? {}).map((format) => format.url)].map((url) => path.join(publicDir(), url));
const stored: string[] = [];

const register = () => app.register(`member${crypto.randomBytes(4).toString('hex')}`);

async function upload(member: Member, file: Picture) {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  form.append('refId', String(member.id));
  form.append('ref', USERS);
  form.append('field', 'profile_picture');
  const started = Date.now();
  const res = await fetch(`${app.baseUrl}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${member.jwt}` }, body: form });
  const body = (await res.json()) as MediaFile[] & ApiError;
  if (res.status === 201) for (const media of body) stored.push(...diskPaths(media));
  return { status: res.status, body, headers: res.headers, ms: Date.now() - started };
}

const pictureOf = async (member: Member): Promise<MediaFile | null> => {
  const res = await request<{ profile_picture: MediaFile | null }>(app.baseUrl, 'GET', '/api/users/me?populate=*', { token: member.jwt });
  expect(res.status).toBe(200);
  return res.body.profile_picture;
};
const fileRows = () => app.strapi.db.query(FILES).count();

/** Runs a refused upload and proves nothing changed: same picture, no new file row, no temp file left. */
async function expectRefused(member: Member, file: Picture, status: number, message: string) {
  const before = { picture: await pictureOf(member), rows: await fileRows() };
  const res = await upload(member, file);
  expect(res.status).toBe(status);
  expect(res.body.error.message).toBe(message);
  expect(await pictureOf(member)).toEqual(before.picture);
  expect(await fileRows()).toBe(before.rows);
  expect(await leftoverTempFiles()).toEqual([]);
  return res;
}

const png = (width = 64, height = 64, background = '#b22222') =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

// --- image bombs ---------------------------------------------------------------------------------

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};
/** A valid black-and-white PNG: 1 bit per pixel, every row zeros, so it deflates to a few KB. */
function pngBomb(width: number, height: number, idat?: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(1, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  const rows = idat ?? zlib.deflateSync(Buffer.alloc((1 + Math.ceil(width / 8)) * height), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A small real image whose header is rewritten to claim width × height. */
async function lyingHeader(format: 'jpeg' | 'gif' | 'webp', width: number, height: number): Promise<Buffer> {
  const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#abcdef' } })
    [format]()
    .toBuffer();
  if (format === 'jpeg') {
    const sof = bytes.indexOf(Buffer.from([0xff, 0xc0]));
    bytes.writeUInt16BE(height, sof + 5);
    bytes.writeUInt16BE(width, sof + 7);
  } else if (format === 'gif') {
    bytes.writeUInt16LE(width, 6);
    bytes.writeUInt16LE(height, 8);
    const descriptor = bytes.indexOf(0x2c, 13);
    bytes.writeUInt16LE(width, descriptor + 5);
    bytes.writeUInt16LE(height, descriptor + 7);
  } else {
    // Lossy WebP: 'VP8 ' chunk, frame tag, start code 9d 01 2a, then 14-bit width and height.
    bytes.writeUInt16LE(width, 26);
    bytes.writeUInt16LE(height, 28);
  }
  return bytes;
}

// --- metadata ------------------------------------------------------------------------------------

const EXIF = {
  IFD0: { Make: 'CarnivoTestCam', Copyright: 'CARNIVO-OWNER-MARKER' },
  IFD3: {
    GPSLatitudeRef: 'N',
    GPSLatitude: '48/1 51/1 2400/100',
    GPSLongitudeRef: 'E',
    GPSLongitude: '2/1 21/1 0/1',
    GPSMapDatum: 'CARNIVO-GPS-MARKER',
  },
};
const XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>CARNIVO-XMP-MARKER</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>';
const MARKERS = ['CarnivoTestCam', 'CARNIVO-OWNER-MARKER', 'CARNIVO-GPS-MARKER', 'CARNIVO-XMP-MARKER'];

/** A width × height photo (noise, so it stays a real photo after re-encoding) with EXIF, GPS, XMP and orientation 6 (rotate 90°). */
async function photoWithMetadata(format: 'jpeg' | 'png' | 'webp', width: number, height: number): Promise<Buffer> {
  const noise = crypto.randomBytes(width * height * 3);
  return sharp(noise, { raw: { width, height, channels: 3 } })
    [format]()
    .withExif(EXIF)
    .withXmp(XMP)
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** The metadata blocks of a PNG, JPEG or WebP file, found by walking its structure. */
function metadataBlocks(bytes: Buffer): string[] {
  const blocks: string[] = [];
  if (bytes.subarray(1, 4).toString('latin1') === 'PNG') {
    for (let at = 8; at + 8 <= bytes.length;) {
      const length = bytes.readUInt32BE(at);
      const type = bytes.subarray(at + 4, at + 8).toString('latin1');
      if (['eXIf', 'iTXt', 'tEXt', 'zTXt', 'iCCP'].includes(type)) blocks.push(type);
      at += 12 + length;
    }
  } else if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    for (let at = 2; at + 4 <= bytes.length && bytes[at] === 0xff;) {
      const marker = bytes[at + 1];
      if (marker === 0xda) break; // start of scan: the pixels follow
      const length = bytes.readUInt16BE(at + 2);
      const payload = bytes.subarray(at + 4, at + 2 + length);
      if (marker === 0xe1 && payload.subarray(0, 6).toString('latin1') === 'Exif\0\0') blocks.push('EXIF');
      if (marker === 0xe1 && payload.includes('http://ns.adobe.com/xap/1.0/')) blocks.push('XMP');
      if (marker === 0xed) blocks.push('IPTC');
      if (marker === 0xe2 && payload.includes('ICC_PROFILE')) blocks.push('ICC');
      at += 2 + length;
    }
  } else if (bytes.subarray(8, 12).toString('latin1') === 'WEBP') {
    for (let at = 12; at + 8 <= bytes.length;) {
      const type = bytes.subarray(at, at + 4).toString('latin1');
      if (['EXIF', 'XMP ', 'ICCP'].includes(type)) blocks.push(type);
      at += 8 + bytes.readUInt32LE(at + 4) + (bytes.readUInt32LE(at + 4) % 2);
    }
  }
  return blocks;
}

/** What in these bytes could identify the member or the place: metadata blocks and the markers written into them. */
const metadataIn = (bytes: Buffer): string[] => [...metadataBlocks(bytes), ...MARKERS.filter((marker) => bytes.includes(marker))];

beforeAll(async () => {
  app = await boot({
    databaseFile: path.join(ORIGINAL_TMPDIR, `carnivo-test-${crypto.randomUUID()}.db`),
    // Many registrations from one address; the auth limiter is not what this file tests.
    limits: 'raised',
    env: { UPLOAD_LIMIT_PER_HOUR: String(PER_HOUR) },
  });
});

afterAll(async () => {
  for (const file of stored) fs.rmSync(file, { force: true });
  await app?.stop();
  removeRequestTmpdir();
});

describe('temp files', () => {
  it('uploads are written to this test’s own temp directory, so leftovers can be counted', () => {
    expect(formidableUploadDir()).toBe(REQUEST_TMPDIR);
    expect(fs.readdirSync(REQUEST_TMPDIR)).toEqual([]);
  });
});

describe('image bombs are refused from the header, before anything is decoded', () => {
  let member: Member;
  let previous: MediaFile;

  beforeAll(async () => {
    member = await register();
    const res = await upload(member, { bytes: await png(), name: 'me.png', type: 'image/png' });
    expect(res.status).toBe(201);
    previous = res.body[0];
  });

  it('a 10000 × 10000 PNG of a few KB (100 megapixels): refused at once, nothing stored', async () => {
    const bomb = pngBomb(10_000, 10_000);
    expect(bomb.length).toBeLessThan(20_000);
    // It is a real image (it decodes), not a broken file refused for that reason.
    expect(await sharp(bomb).metadata()).toMatchObject({ format: 'png', width: 10_000, height: 10_000 });

    const res = await expectRefused(member, { bytes: bomb, name: 'bomb.png', type: 'image/png' }, 400, TOO_MANY_PIXELS);
    // Decoding it took ~8 s of CPU; reading its header takes milliseconds (generous bound for slow CI).
    expect(res.ms).toBeLessThan(2_000);
    expect((await pictureOf(member))?.id).toBe(previous.id);
  });

  it('a header claiming 10000 × 10000 over a few bytes of data: refused for its size, not decoded', async () => {
    const tiny = pngBomb(10_000, 10_000, zlib.deflateSync(Buffer.alloc(16)));
    expect(tiny.length).toBeLessThan(100);
    await expectRefused(member, { bytes: tiny, name: 'tiny.png', type: 'image/png' }, 400, TOO_MANY_PIXELS);
  });

  it.each([
    ['jpeg', 10_000, 10_000, 'image/jpeg'],
    ['gif', 10_000, 10_000, 'image/gif'],
    ['webp', 16_383, 16_383, 'image/webp'],
  ] as const)('a %s header claiming %i × %i', async (format, width, height, type) => {
    const bytes = await lyingHeader(format, width, height);
    expect(await sharp(bytes).metadata()).toMatchObject({ width, height });
    const res = await expectRefused(member, { bytes, name: `bomb.${format}`, type }, 400, TOO_MANY_PIXELS);
    expect(res.ms).toBeLessThan(2_000);
  });

  it('a side over 6000 px, even far under 25 megapixels', async () => {
    await expectRefused(member, { bytes: pngBomb(6001, 10), name: 'wide.png', type: 'image/png' }, 400, TOO_MANY_PIXELS);
    await expectRefused(member, { bytes: pngBomb(10, 6001), name: 'tall.png', type: 'image/png' }, 400, TOO_MANY_PIXELS);
  });

  it('an animation counts every frame: 3 frames of 3000 × 3000 (27 megapixels) is refused', async () => {
    const frames = await Promise.all(['#ff0000', '#00ff00', '#0000ff'].map((colour) => png(3000, 3000, colour)));
    const animation = await sharp(frames, { join: { animated: true } })
      .webp()
      .toBuffer();
    expect(await sharp(animation).metadata()).toMatchObject({ width: 3000, height: 3000, pages: 3 });
    await expectRefused(member, { bytes: animation, name: 'anim.webp', type: 'image/webp' }, 400, TOO_MANY_PIXELS);
  });

  it('exactly 6000 px on a side is accepted (the limit is inclusive)', async () => {
    const res = await upload(member, { bytes: await png(6000, 40), name: 'banner.png', type: 'image/png' });
    expect(res.status).toBe(201);
    expect(res.body[0]).toMatchObject({ width: 6000, height: 40, mime: 'image/png' });
    expect((await pictureOf(member))?.id).toBe(res.body[0].id);
    expect(await leftoverTempFiles()).toEqual([]);
  });
});

describe('stored pictures are re-encoded without metadata', () => {
  /** Uploads as a fresh member (3 uploads an hour each) and returns every stored file of the new picture. */
  async function uploadAndRead(file: Picture): Promise<{ picture: MediaFile; files: { path: string; bytes: Buffer }[] }> {
    const member = await register();
    const res = await upload(member, file);
    expect(res.status).toBe(201);
    const picture = (await pictureOf(member))!;
    expect(picture.id).toBe(res.body[0].id);
    expect(picture.mime).toBe(file.type);
    const row = await app.strapi.db.query(FILES).findOne({ where: { id: picture.id } });
    const files = diskPaths(row).map((filePath) => ({ path: filePath, bytes: fs.readFileSync(filePath) }));
    expect(files.length).toBeGreaterThan(1); // the original and at least the thumbnail
    expect(await leftoverTempFiles()).toEqual([]);
    return { picture, files };
  }

  async function expectNoMetadata(files: { bytes: Buffer }[], format: string) {
    for (const { bytes } of files) {
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe(format);
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(metadataIn(bytes)).toEqual([]);
    }
  }

  async function sentWithMetadata(format: 'jpeg' | 'png' | 'webp'): Promise<Buffer> {
    const sent = await photoWithMetadata(format, 400, 300);
    // The attack is real: the upload carries the location, the camera, the owner.
    const meta = await sharp(sent).metadata();
    expect(meta.exif).toBeInstanceOf(Buffer);
    expect(meta.orientation).toBe(6);
    expect(meta.xmp).toBeInstanceOf(Buffer);
    expect(metadataIn(sent)).toEqual(expect.arrayContaining(['CARNIVO-GPS-MARKER', 'CarnivoTestCam']));
    expect(metadataBlocks(sent).length).toBeGreaterThan(0);
    return sent;
  }

  it('default settings: a JPEG loses EXIF, GPS and XMP, and is turned upright (Strapi alone drops the orientation without applying it)', async () => {
    const sent = await sentWithMetadata('jpeg');
    const { picture, files } = await uploadAndRead({ bytes: sent, name: 'photo.jpg', type: 'image/jpeg' });
    await expectNoMetadata(files, 'jpeg');
    // Orientation 6 applied: 400 × 300 becomes 300 × 400, with no orientation tag left to apply twice.
    expect(picture).toMatchObject({ width: 300, height: 400 });
    expect(await sharp(files[0].bytes).metadata()).toMatchObject({ width: 300, height: 400 });
  });

  describe('with the media library’s size optimisation off (Settings > Media Library)', () => {
    let settings: unknown;
    const uploadService = () => app.strapi.plugin('upload').service('upload');
    beforeAll(async () => {
      settings = await uploadService().getSettings();
      await uploadService().setSettings({ ...(settings as object), sizeOptimization: false, autoOrientation: false });
    });
    afterAll(async () => {
      await uploadService().setSettings(settings);
    });

    it.each([
      ['jpeg', 'image/jpeg', 'photo.jpg'],
      ['png', 'image/png', 'photo.png'],
      ['webp', 'image/webp', 'photo.webp'],
    ] as const)(
      '%s: EXIF (GPS), XMP and orientation are gone from every stored file; the rotation is applied',
      async (format, type, name) => {
        const sent = await sentWithMetadata(format);
        const { picture, files } = await uploadAndRead({ bytes: sent, name, type });
        await expectNoMetadata(files, format);
        expect(picture).toMatchObject({ width: 300, height: 400 });
        expect(await sharp(files[0].bytes).metadata()).toMatchObject({ width: 300, height: 400 });
      },
    );
  });

  it('GIF (never optimised by Strapi): a comment carrying the location is gone, and an animation keeps its first frame', async () => {
    const frames = await Promise.all(['#ff0000', '#0000ff'].map((colour) => png(300, 200, colour)));
    const animation = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    // A comment extension right after the header and global colour table.
    const table = animation[10] & 0x80 ? 3 * 2 ** ((animation[10] & 0x07) + 1) : 0;
    const text = Buffer.from('CARNIVO-GPS-MARKER 48.8566 N 2.3522 E', 'latin1');
    const comment = Buffer.concat([Buffer.from([0x21, 0xfe, text.length]), text, Buffer.from([0x00])]);
    const sent = Buffer.concat([animation.subarray(0, 13 + table), comment, animation.subarray(13 + table)]);
    expect(await sharp(sent).metadata()).toMatchObject({ format: 'gif', width: 300, height: 200, pages: 2 });
    expect(sent.includes('CARNIVO-GPS-MARKER')).toBe(true);

    const { picture, files } = await uploadAndRead({ bytes: sent, name: 'anim.gif', type: 'image/gif' });
    expect(picture).toMatchObject({ width: 300, height: 200 });
    for (const { bytes } of files) {
      expect(bytes.includes('CARNIVO-GPS-MARKER')).toBe(false);
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe('gif');
      expect(meta.pages ?? 1).toBe(1);
    }
    // The first frame (red) is what is stored.
    const { data } = await sharp(files[0].bytes).raw().toBuffer({ resolveWithObject: true });
    expect([data[0], data[1], data[2]]).toEqual([255, 0, 0]);
  });
});

describe(`at most ${PER_HOUR} pictures a member an hour (UPLOAD_LIMIT_PER_HOUR)`, () => {
  it('refused files do not count; the upload after the limit gets 429 and the picture stays', async () => {
    const member = await register();
    // Refused by the cheap checks (type, header): not counted.
    await expectRefused(member, { bytes: Buffer.from('not a picture'), name: 'x.png', type: 'image/png' }, 400, NOT_AN_IMAGE);
    await expectRefused(member, { bytes: pngBomb(10_000, 10_000), name: 'bomb.png', type: 'image/png' }, 400, TOO_MANY_PIXELS);

    let last: MediaFile | undefined;
    for (let n = 1; n <= PER_HOUR; n += 1) {
      const res = await upload(member, { bytes: await png(32, 32, `#0${n}0${n}0${n}`), name: `me${n}.png`, type: 'image/png' });
      expect(res.status).toBe(201);
      last = res.body[0];
    }
    expect((await pictureOf(member))?.id).toBe(last!.id);

    const res = await expectRefused(
      member,
      { bytes: await png(32, 32, '#ffffff'), name: 'one-more.png', type: 'image/png' },
      429,
      `You can upload at most ${PER_HOUR} pictures an hour. Please try again later.`,
    );
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect((await pictureOf(member))?.id).toBe(last!.id);
    // Still refused, whatever the file.
    await expectRefused(
      member,
      { bytes: await png(8, 8), name: 'again.png', type: 'image/png' },
      429,
      `You can upload at most ${PER_HOUR} pictures an hour. Please try again later.`,
    );
  });

  it('files that reach the decoder count even when they turn out broken (each costs a decode)', async () => {
    const member = await register();
    // A valid 64 × 64 header over data that is not an image: passes the header checks, fails the decode.
    const broken = pngBomb(64, 64, crypto.randomBytes(256));
    for (let n = 1; n <= PER_HOUR; n += 1) {
      await expectRefused(member, { bytes: broken, name: `broken${n}.png`, type: 'image/png' }, 400, NOT_AN_IMAGE);
    }
    await expectRefused(
      member,
      { bytes: await png(), name: 'good.png', type: 'image/png' },
      429,
      `You can upload at most ${PER_HOUR} pictures an hour. Please try again later.`,
    );
    expect(await pictureOf(member)).toBeNull();
  });

  it('the limit is per member: another member still uploads', async () => {
    const member = await register();
    const res = await upload(member, { bytes: await png(), name: 'mine.png', type: 'image/png' });
    expect(res.status).toBe(201);
    expect((await pictureOf(member))?.id).toBe(res.body[0].id);
  });
});
