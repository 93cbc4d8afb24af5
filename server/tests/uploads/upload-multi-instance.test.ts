import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { missingServices, startCluster, type Cluster, type Instance } from '../helpers/instances';
import type { Member } from '../helpers/members';

const require = createRequire(import.meta.url);
const sharp = require('sharp') as typeof import('sharp').default;

/**
 * Files: no orphans, across instances (docs/uploads.md). Two server processes on
 * one PostgreSQL database share one uploads directory (PUBLIC_DIR, as a shared disk would be); one
 * member's pictures, sent at once and alternating between them, leave exactly one stored picture.
 */

const missing = await missingServices();
if (missing) console.warn(`[upload-multi-instance.test] skipped: ${missing}`);

const USERS = 'plugin::users-permissions.user';

let cluster: Cluster;
let a: Instance;
let b: Instance;
let uploadsDir: string;

interface MediaFile {
  id: number;
  url: string;
  formats: Record<string, { url: string }> | null;
}

const urlsOf = (file: MediaFile) => [file.url, ...Object.values(file.formats ?? {}).map((format) => format.url)];
const onDisk = () =>
  fs
    .readdirSync(uploadsDir)
    .filter((name) => !name.startsWith('.'))
    .sort();
const png = (background: string) =>
  sharp({ create: { width: 640, height: 480, channels: 3, background } })
    .png()
    .toBuffer();

async function upload(instance: Instance, member: Member, bytes: Buffer, name: string) {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  form.append('refId', String(member.id));
  form.append('ref', USERS);
  form.append('field', 'profile_picture');
  const res = await fetch(`${instance.baseUrl}/api/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${member.jwt}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as MediaFile[] };
}

const pictureOf = async (instance: Instance, member: Member): Promise<MediaFile | null> => {
  const res = await fetch(`${instance.baseUrl}/api/users/me?populate=*`, { headers: { Authorization: `Bearer ${member.jwt}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { profile_picture: MediaFile | null }).profile_picture;
};

/** The member's file rows: recorded as theirs or linked to them. */
const rowsOf = async (memberId: number) => {
  const linked = await cluster.sql<{ file_id: unknown }>(
    'SELECT file_id FROM files_related_mph WHERE related_type = $1 AND related_id = $2 ORDER BY file_id',
    [USERS, memberId],
  );
  const owned = await cluster.sql<{ id: unknown }>('SELECT id FROM files WHERE owner_member_id = $1 ORDER BY id', [memberId]);
  return { linked: linked.map((row) => Number(row.file_id)), owned: owned.map((row) => Number(row.id)) };
};
const rowsWithIds = async (ids: number[]) =>
  (await cluster.sql<{ id: unknown }>('SELECT id FROM files WHERE id = ANY($1::int[]) ORDER BY id', [ids])).map((row) => Number(row.id));

describe.skipIf(missing !== null)('one member’s pictures at once on two instances (PostgreSQL)', () => {
  beforeAll(async () => {
    // Both instances share the cluster's PUBLIC_DIR, as a shared disk would be.
    cluster = await startCluster(2, { UPLOAD_LIMIT_PER_HOUR: '100' });
    [a, b] = cluster.instances;
    uploadsDir = path.join(cluster.publicDir, 'uploads');
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  let member: Member;

  beforeAll(async () => {
    member = await cluster.register(a, `racer${crypto.randomBytes(3).toString('hex')}`);
  });

  it('leave exactly one file row, one set of files on disk, the picture both instances show; the others answer 404', async () => {
    const first = await upload(a, member, await png('#000000'), 'first.png');
    expect(first.status).toBe(201);

    const colours = ['#b22222', '#228b22', '#1e90ff', '#ffd700', '#8a2be2', '#ff8c00'];
    const answers = await Promise.all(
      colours.map(async (colour, n) => upload(n % 2 ? b : a, member, await png(colour), `at-once-${n}.png`)),
    );
    for (const answer of answers) expect(answer.status).toBe(201);
    const stored = [first.body[0], ...answers.map((answer) => answer.body[0])];
    expect(new Set(stored.map((file) => file.id)).size).toBe(stored.length);

    const current = (await pictureOf(a, member))!;
    expect((await pictureOf(b, member))?.id).toBe(current.id);
    expect(stored.map((file) => file.id)).toContain(current.id);

    // Re-read the database and the shared disk.
    expect(await rowsWithIds(stored.map((file) => file.id))).toEqual([current.id]);
    expect(await rowsOf(member.id)).toEqual({ linked: [current.id], owned: [current.id] });
    expect(Object.keys(current.formats ?? {})).toEqual(expect.arrayContaining(['thumbnail', 'small']));
    expect(onDisk()).toEqual(
      urlsOf(current)
        .map((url) => path.basename(url))
        .sort(),
    );

    for (const instance of [a, b]) {
      for (const file of stored) {
        for (const url of urlsOf(file))
          expect((await fetch(instance.baseUrl + url)).status, `${instance.name} ${url}`).toBe(file.id === current.id ? 200 : 404);
      }
    }
  });

  it('deleting the account on one instance removes the picture everywhere', async () => {
    const current = (await pictureOf(b, member))!;
    const res = await fetch(`${b.baseUrl}/api/users-permissions/users/delete-account`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${member.jwt}` },
    });
    expect(res.status).toBe(200);
    expect(await rowsOf(member.id)).toEqual({ linked: [], owned: [] });
    expect(await rowsWithIds([current.id])).toEqual([]);
    expect(onDisk()).toEqual([]);
    for (const url of urlsOf(current)) expect((await fetch(a.baseUrl + url)).status).toBe(404);
  });
});
