import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { request, SERVER_DIR, type TestStrapi } from '../helpers/strapi';
import type { ApiError } from '../helpers/types';
import { signUp } from '../helpers/members';
import { boot } from '../helpers/app';

const require = createRequire(import.meta.url);
const sharp = require('sharp') as typeof import('sharp').default;

/**
 * Files: no orphans (docs/uploads.md). One member's uploads at once leave exactly
 * one stored picture, and `npm run uploads:orphans` finds and removes what older code left behind,
 * never the media library's files. SQLite, in-process, local disk in this file's own PUBLIC_DIR.
 */

const USERS = 'plugin::users-permissions.user';
const FILES = 'plugin::upload.file';

let app: TestStrapi;
let tmpDir: string;
let uploadsDir: string;

interface Member {
  jwt: string;
  id: number;
  documentId: string;
}
interface MediaFile {
  id: number;
  url: string;
  formats: Record<string, { url: string }> | null;
}

const urlsOf = (file: MediaFile) => [file.url, ...Object.values(file.formats ?? {}).map((format) => format.url)];
const namesOf = (file: MediaFile) => urlsOf(file).map((url) => path.basename(url));
const onDisk = () =>
  fs
    .readdirSync(uploadsDir)
    .filter((name) => !name.startsWith('.'))
    .sort();

const register = (): Promise<Member> => signUp(app.baseUrl, `member${crypto.randomBytes(4).toString('hex')}`);

/** A 640 × 480 PNG of one colour: stored with a thumbnail and a small size. */
const png = (background: string) =>
  sharp({ create: { width: 640, height: 480, channels: 3, background } })
    .png()
    .toBuffer();

async function upload(member: Member, bytes: Buffer, name: string) {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  form.append('refId', String(member.id));
  form.append('ref', USERS);
  form.append('field', 'profile_picture');
  const res = await fetch(`${app.baseUrl}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${member.jwt}` }, body: form });
  return { status: res.status, body: (await res.json()) as MediaFile[] & ApiError };
}

const pictureOf = async (member: Member): Promise<MediaFile | null> => {
  const res = await request<{ profile_picture: MediaFile | null }>(app.baseUrl, 'GET', '/api/users/me?populate=*', { token: member.jwt });
  expect(res.status).toBe(200);
  return res.body.profile_picture;
};

/** File rows linked to the member (files_related_mph), whatever the field. */
const linkedRows = async (memberId: number) =>
  (await app.strapi.db.connection('files_related_mph').where({ related_id: memberId, related_type: USERS }).select('file_id'))
    .map((row) => Number(row.file_id))
    .sort();
const fileRow = (id: number) => app.strapi.db.query(FILES).findOne({ where: { id } }) as Promise<MediaFile | null>;
const served = async (url: string) => (await fetch(app.baseUrl + url)).status;

/** A file stored the way Strapi's upload service stores one (linked to `link`, in `folder`, uploaded by the admin `user`, when given). */
async function storeDirectly(
  name: string,
  colour: string,
  options: { link?: Member; user?: { id: number }; folder?: number } = {},
): Promise<MediaFile> {
  const filepath = path.join(tmpDir, name);
  fs.writeFileSync(filepath, await png(colour));
  const [file] = (await app.strapi
    .plugin('upload')
    .service('upload')
    .upload(
      {
        data: {
          ...(options.link ? { ref: USERS, refId: options.link.id, field: 'profile_picture' } : {}),
          ...(options.folder ? { fileInfo: { folder: options.folder } } : {}),
        },
        files: { filepath, originalFilename: name, mimetype: 'image/png', size: fs.statSync(filepath).size },
      },
      options.user ? { user: options.user } : undefined,
    )) as MediaFile[];
  return file;
}

beforeAll(async () => {
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-orphans-'));
  uploadsDir = path.join(tmpDir, 'public', 'uploads');
  fs.mkdirSync(uploadsDir, { recursive: true });
  app = await boot({
    outbox: true,
    limits: 'raised',
    env: {
      PUBLIC_DIR: path.join(tmpDir, 'public'),
      UPLOAD_LIMIT_PER_HOUR: '100',
    },
  });
  expect(app.strapi.dirs.static.public).toBe(path.join(tmpDir, 'public'));
});

afterAll(async () => {
  await app?.stop();
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});

describe('five pictures uploaded at once by one member', () => {
  let member: Member;
  let current: MediaFile;
  const replaced: MediaFile[] = [];

  beforeAll(async () => {
    member = await register();
  });

  it('leave exactly one stored picture: one file row, one set of files on disk, the one the profile shows', async () => {
    const first = await upload(member, await png('#000000'), 'first.png');
    expect(first.status).toBe(201);

    const colours = ['#b22222', '#228b22', '#1e90ff', '#ffd700', '#8a2be2'];
    const answers = await Promise.all(colours.map(async (colour, n) => upload(member, await png(colour), `at-once-${n}.png`)));
    for (const answer of answers) expect(answer.status).toBe(201);
    const stored = [first.body[0], ...answers.map((answer) => answer.body[0])];
    expect(new Set(stored.map((file) => file.id)).size).toBe(6);

    current = (await pictureOf(member))!;
    expect(stored.map((file) => file.id)).toContain(current.id);
    replaced.push(...stored.filter((file) => file.id !== current.id));

    // Re-read: one link, one row of the member's, one set of files on disk.
    expect(await linkedRows(member.id)).toEqual([current.id]);
    const rows = (await app.strapi.db.query(FILES).findMany({ where: { id: { $in: stored.map((file) => file.id) } } })) as MediaFile[];
    expect(rows.map((row) => row.id)).toEqual([current.id]);
    expect(Object.keys(current.formats ?? {})).toEqual(expect.arrayContaining(['thumbnail', 'small']));
    expect(onDisk()).toEqual(namesOf(current).sort());
  });

  it('the current picture is recorded as the member’s upload (never shown to clients)', async () => {
    const [row] = await app.strapi.db.connection('files').where({ id: current.id }).select('owner_member_id');
    expect(Number(row.owner_member_id)).toBe(member.id);
    expect(JSON.stringify(await pictureOf(member))).not.toMatch(/owner/i);
  });

  it('every replaced picture’s URL, in every size, answers 404; the current one’s 200', async () => {
    expect(replaced).toHaveLength(5);
    for (const file of replaced) for (const url of urlsOf(file)) expect(await served(url), url).toBe(404);
    for (const url of urlsOf(current)) expect(await served(url), url).toBe(200);
  });

  it('a later single upload replaces it the same way', async () => {
    const res = await upload(member, await png('#ffffff'), 'later.png');
    expect(res.status).toBe(201);
    expect((await pictureOf(member))?.id).toBe(res.body[0].id);
    expect(await fileRow(current.id)).toBeNull();
    expect(onDisk()).toEqual(namesOf(res.body[0]).sort());
    for (const url of urlsOf(current)) expect(await served(url), url).toBe(404);
  });
});

/** Runs `npm run uploads:orphans -- <args>` from server/ against this file's database and PUBLIC_DIR. */
function runCommand(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'uploads:orphans', '--', ...args], {
      cwd: SERVER_DIR,
      // bootStrapi put this app's database, secrets and PUBLIC_DIR into process.env.
      // server/dist is this run's: the script must not compile it again under other files' instances.
      env: { ...process.env, DATABASE_FILENAME: app.databaseFile, CARNIVO_SERVER_DIST_CURRENT: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run uploads:orphans', () => {
  let member: Member;
  let current: MediaFile;
  let legacyLeft: MediaFile;
  let olderMedia: MediaFile;
  let leftOwned: MediaFile;
  let ofDeletedMember: MediaFile;
  let adminMedia: MediaFile;
  let apiMedia: MediaFile;
  let adminPicture: MediaFile;
  const stray = 'stray_0123456789.png';
  const fresh = 'fresh_upload_in_progress.png';
  let orphans: MediaFile[];
  let kept: MediaFile[];

  beforeAll(async () => {
    member = await register();
    const res = await upload(member, await png('#123456'), 'mine.png');
    expect(res.status).toBe(201);
    current = res.body[0];
    // A replaced picture of the member's whose removal failed: recorded as theirs, linked to nothing.
    leftOwned = await storeDirectly('left-owned.png', '#abcdef');
    await app.strapi.db.query(FILES).update({ where: { id: leftOwned.id }, data: { ownerMemberId: member.id } });

    // What the old code left behind: a picture the member uploaded through the content API (in its
    // "API Uploads" folder, no admin, no owner recorded yet), then replaced: Strapi unlinked it, the
    // old guard never removed it. Stored before this server recorded owners.
    const apiFolder = (await app.strapi.store({ type: 'plugin', name: 'upload', key: 'api-folder' }).get({})) as { id: number };
    expect(apiFolder.id).toBeGreaterThan(0);
    legacyLeft = await storeDirectly('legacy.png', '#654321', { folder: apiFolder.id });
    await app.strapi.db.query(FILES).update({ where: { id: legacyLeft.id }, data: { createdAt: new Date('2024-01-01T00:00:00Z') } });

    // A member deleted from the admin panel (the user row only): their picture stays, recorded as theirs.
    const gone = await register();
    const goneRes = await upload(gone, await png('#fedcba'), 'gone.png');
    expect(goneRes.status).toBe(201);
    ofDeletedMember = goneRes.body[0];
    await app.strapi.documents(USERS).delete({ documentId: gone.documentId });

    // The media library: an admin's upload linked to nothing, an admin's upload an admin set as a
    // member's picture, and an upload through an API token (content API, "API Uploads" folder, no
    // admin, no owner) linked to nothing, once before owners were recorded in another folder and
    // once since.
    const admin = await app.strapi.db.query('admin::user').create({
      data: { firstname: 'Ada', lastname: 'Admin', email: `admin${crypto.randomBytes(3).toString('hex')}@example.com`, isActive: true },
    });
    adminMedia = await storeDirectly('banner.png', '#00ff00', { user: { id: admin.id } });
    const pictured = await register();
    adminPicture = await storeDirectly('hero.png', '#ff00ff', { user: { id: admin.id }, link: pictured });
    // (The content API's upload as an API token makes it: no ref, into the "API Uploads" folder.)
    apiMedia = await storeDirectly('api-token-upload.png', '#0000ff', { folder: apiFolder.id });
    olderMedia = await storeDirectly('older.png', '#00ffff');
    await app.strapi.db.query(FILES).update({ where: { id: olderMedia.id }, data: { createdAt: new Date('2024-01-01T00:00:00Z') } });

    // Disk: a file no row names (old enough), and one written a moment ago (an upload in progress).
    fs.writeFileSync(path.join(uploadsDir, stray), await png('#333333'));
    const hoursAgo = new Date(Date.now() - 3 * 60 * 60 * 1000);
    fs.utimesSync(path.join(uploadsDir, stray), hoursAgo, hoursAgo);
    fs.writeFileSync(path.join(uploadsDir, fresh), await png('#444444'));

    expect((await pictureOf(member))?.id).toBe(current.id);
    expect((await pictureOf(pictured))?.id).toBe(adminPicture.id);
    orphans = [leftOwned, legacyLeft, ofDeletedMember];
    kept = [current, adminMedia, apiMedia, olderMedia, adminPicture];
    // The orphans are real: stored, and served publicly.
    for (const file of [...orphans, ...kept]) {
      expect(await fileRow(file.id), String(file.id)).not.toBeNull();
      for (const name of namesOf(file)) expect(fs.existsSync(path.join(uploadsDir, name)), name).toBe(true);
    }
    for (const file of orphans) for (const url of urlsOf(file)) expect(await served(url)).toBe(200);
  });

  it('--dry-run reports every orphan and deletes nothing', async () => {
    const before = onDisk();
    const res = await runCommand(['--dry-run']);
    expect(res.code, res.stderr + res.stdout).toBe(0);
    expect(res.stdout).toContain('dry run');
    for (const file of orphans) expect(res.stdout).toContain(`file ${file.id} ${file.url}`);
    expect(res.stdout).toContain(`file ${leftOwned.id} ${leftOwned.url} (+2 sizes) [local]: member ${member.id}'s replaced picture`);
    expect(res.stdout).toMatch(new RegExp(`file ${ofDeletedMember.id} .*whose account no longer exists`));
    expect(res.stdout).toContain(
      `file ${legacyLeft.id} ${legacyLeft.url} (+2 sizes) [local]: a content-API upload stored before uploads recorded their member`,
    );
    expect(res.stdout).toContain(stray);
    for (const file of kept) expect(res.stdout).not.toContain(`file ${file.id} `);
    expect(res.stdout).not.toContain(fresh);
    expect(res.stdout).toContain('3 orphaned file row(s), 1 stray file(s) on disk');

    // Re-read: nothing gone.
    expect(onDisk()).toEqual(before);
    for (const file of [...orphans, ...kept]) expect(await fileRow(file.id)).not.toBeNull();
    expect((await pictureOf(member))?.id).toBe(current.id);
  });

  it('the real run removes them, rows and every size on disk; the member’s picture and the media library stay', async () => {
    const res = await runCommand([]);
    expect(res.code, res.stderr + res.stdout).toBe(0);
    expect(res.stdout).toContain('Removed 3 file row(s) with their stored files and 1 stray disk file(s).');

    for (const file of orphans) {
      expect(await fileRow(file.id), String(file.id)).toBeNull();
      for (const name of namesOf(file)) expect(fs.existsSync(path.join(uploadsDir, name)), name).toBe(false);
      for (const url of urlsOf(file)) expect(await served(url), url).toBe(404);
    }
    expect(fs.existsSync(path.join(uploadsDir, stray))).toBe(false);
    expect(fs.existsSync(path.join(uploadsDir, fresh))).toBe(true);

    for (const file of kept) {
      expect(await fileRow(file.id), String(file.id)).not.toBeNull();
      for (const name of namesOf(file)) expect(fs.existsSync(path.join(uploadsDir, name)), name).toBe(true);
    }
    expect((await pictureOf(member))?.id).toBe(current.id);
    for (const url of urlsOf(current)) expect(await served(url)).toBe(200);
    expect(await linkedRows(member.id)).toEqual([current.id]);
  });

  it('a second run finds nothing', async () => {
    const res = await runCommand(['--dry-run']);
    expect(res.code, res.stderr + res.stdout).toBe(0);
    expect(res.stdout).toContain('0 orphaned file row(s), 0 stray file(s) on disk');
  });

  it('refuses an unknown argument without touching anything', async () => {
    const before = onDisk();
    const res = await runCommand(['--dryrun']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('Unknown argument "--dryrun"');
    expect(onDisk()).toEqual(before);
  });
});
