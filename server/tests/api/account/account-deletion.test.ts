import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { boot, type TestApp } from '../../helpers/app';
import type { Member } from '../../helpers/members';
import { request } from '../../helpers/strapi';
import type { ApiError } from '../../helpers/types';
import type { AccountDeletionService, DeletableUser } from '../../../src/api/account/services/account-deletion';
import { apiRouters, rolePermissions } from '../../../src/bootstrap/permissions';

const require = createRequire(import.meta.url);
const sharp = require('sharp') as typeof import('sharp').default;

const USERS = 'plugin::users-permissions.user';
const DELETE_PATH = '/api/users-permissions/users/delete-account';

let app: TestApp;
let tmpDir: string;

const register = (username: string) => app.register(username);
const deleteAccount = (token?: string, body?: unknown) =>
  request<{ ok?: boolean } & Partial<ApiError>>(app.baseUrl, 'DELETE', DELETE_PATH, { token, body });
const deletion = () => app.strapi.service('api::account.account-deletion') as unknown as AccountDeletionService;

interface StoredFile {
  id: number;
  url: string;
  formats: Record<string, { url: string }> | null;
}

/** Uploads an image as the user's profile picture, the way the upload plugin links it to an entry. */
async function uploadProfilePicture(userId: number, name: string): Promise<StoredFile> {
  const filepath = path.join(tmpDir, name);
  await sharp({ create: { width: 640, height: 480, channels: 3, background: '#b22222' } })
    .png()
    .toFile(filepath);
  const [file] = (await app.strapi
    .plugin('upload')
    .service('upload')
    .upload({
      data: { ref: USERS, refId: userId, field: 'profile_picture' },
      files: { filepath, originalFilename: name, mimetype: 'image/png', size: fs.statSync(filepath).size },
    })) as StoredFile[];
  return file;
}

const publicDir = () => app.strapi.dirs.static.public;
/** Every file on disk behind an upload record (original and generated formats). */
const diskPaths = (file: StoredFile) =>
  [file.url, ...Object.values(file.formats ?? {}).map((format) => format.url)].map((url) => path.join(publicDir(), url));

/** Rows that belong to the user, by table. */
async function rowsOf(userId: number, fileIds: number[]) {
  const knex = app.strapi.db.connection;
  const meta = app.strapi.db.metadata.get(USERS);
  const linkTable = (attribute: string) =>
    (meta.attributes[attribute] as unknown as { joinTable: { name: string; joinColumn: { name: string } } }).joinTable;
  const ingredients = linkTable('ingredients');
  const role = linkTable('role');
  const count = async (query: PromiseLike<unknown[]>) => (await query).length;
  return {
    users: await count(knex('up_users').where({ id: userId })),
    ingredientLinks: await count(knex(ingredients.name).where(ingredients.joinColumn.name, userId)),
    roleLinks: await count(knex(role.name).where(role.joinColumn.name, userId)),
    components: await count(knex('up_users_cmps').where({ entity_id: userId })),
    files: await count(knex('files').whereIn('id', fileIds)),
    fileLinks: await count(knex('files_related_mph').where({ related_id: userId, related_type: USERS })),
  };
}

beforeAll(async () => {
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-deletion-'));
  // Uploads on local disk in this file's own directory (PUBLIC_DIR/uploads).
  fs.mkdirSync(path.join(tmpDir, 'public', 'uploads'), { recursive: true });
  app = await boot({ outbox: true, env: { PUBLIC_DIR: path.join(tmpDir, 'public') } });
});

afterAll(async () => {
  await app?.stop();
  fs.rmSync(tmpDir, { recursive: true, force: true });
});

describe('DELETE /api/users-permissions/users/delete-account', () => {
  let alice: Awaited<ReturnType<typeof register>>;
  let bob: Awaited<ReturnType<typeof register>>;
  let picture: StoredFile;
  const cleanupCalls: { name: string; userId: number; userStillThere: boolean }[] = [];

  beforeAll(async () => {
    alice = await register('alice');
    bob = await register('bobby');
    for (const user of [alice, bob]) {
      await app.strapi.documents(USERS).update({
        documentId: user.documentId,
        data: { ingredients: [1, 3], bmi: { currentWeight: 80, height: 180 } },
      } as never);
    }
    picture = await uploadProfilePicture(alice.id, 'alice.png');
    deletion().registerCleanup('test-recorder', async (user: DeletableUser, { strapi }) => {
      const stillThere = (await strapi.db.query(USERS).count({ where: { id: user.id } })) === 1;
      cleanupCalls.push({ name: user.username, userId: user.id, userStillThere: stillThere });
    });
  });

  it('is granted to the authenticated role only', () => {
    const permissions = rolePermissions(apiRouters(app.strapi));
    expect(permissions.authenticated).toContain('api::account.account.deleteAccount');
    expect(permissions.public).not.toContain('api::account.account.deleteAccount');
  });

  it('starts with the rows and files the test relies on', async () => {
    const populated = await app.strapi.db.query(USERS).findOne({ where: { id: alice.id }, populate: ['profile_picture'] });
    expect(populated.profile_picture.id).toBe(picture.id);
    expect(Object.keys(picture.formats ?? {})).toContain('thumbnail');
    for (const file of diskPaths(picture)) expect(fs.existsSync(file), file).toBe(true);
    expect(await rowsOf(alice.id, [picture.id])).toEqual({
      users: 1,
      ingredientLinks: 2,
      roleLinks: 1,
      components: 1,
      files: 1,
      fileLinks: 1,
    });
  });

  it('answers 401 without a token or with an invalid one, and deletes nothing', async () => {
    for (const token of [undefined, 'not-a-jwt', `${alice.jwt}x`]) {
      const res = await deleteAccount(token);
      expect(res.status, String(token)).toBe(401);
      expect(res.body.error).toMatchObject({ status: 401, name: 'UnauthorizedError' });
    }
    // SPEC §6: the server says why, without a token at all.
    expect((await deleteAccount(undefined)).body.error).toMatchObject({ message: 'You must be logged in to delete your account' });
    const noScheme = await fetch(app.baseUrl + DELETE_PATH, { method: 'DELETE', headers: { Authorization: alice.jwt } });
    expect(noScheme.status).toBe(401);
    expect(await rowsOf(alice.id, [picture.id])).toMatchObject({ users: 1, files: 1 });
    expect(cleanupCalls).toEqual([]);
    for (const file of diskPaths(picture)) expect(fs.existsSync(file)).toBe(true);
  });

  it("another user's token deletes that user, never you (whatever the request names)", async () => {
    const res = await deleteAccount(bob.jwt, { id: alice.id, userId: alice.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(await app.strapi.db.query(USERS).count({ where: { id: bob.id } })).toBe(0);

    expect(await rowsOf(alice.id, [picture.id])).toEqual({
      users: 1,
      ingredientLinks: 2,
      roleLinks: 1,
      components: 1,
      files: 1,
      fileLinks: 1,
    });
    for (const file of diskPaths(picture)) expect(fs.existsSync(file)).toBe(true);
    expect((await app.me(alice.jwt)).status).toBe(200);
  });

  it('a failing clean-up aborts the deletion and leaves the account intact', async () => {
    let fail = true;
    deletion().registerCleanup('test-flaky', () => {
      if (fail) throw new Error('payment provider unreachable');
    });
    const logger = app.strapi.log as unknown as { silent: boolean };
    logger.silent = true; // the expected failure is logged
    const res = await deleteAccount(alice.jwt).finally(() => {
      logger.silent = false;
    });
    expect(res.status).toBe(500);
    expect(await rowsOf(alice.id, [picture.id])).toMatchObject({ users: 1, files: 1, components: 1 });
    for (const file of diskPaths(picture)) expect(fs.existsSync(file)).toBe(true);
    fail = false;
  });

  it('deletes the user, their rows, links and profile picture files; runs every clean-up first', async () => {
    const before = await rowsOf(alice.id, [picture.id]);
    expect(before.users).toBe(1);
    cleanupCalls.length = 0;

    const res = await deleteAccount(alice.jwt);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });

    expect(cleanupCalls).toEqual([{ name: 'alice', userId: alice.id, userStillThere: true }]);
    expect(await rowsOf(alice.id, [picture.id])).toEqual({
      users: 0,
      ingredientLinks: 0,
      roleLinks: 0,
      components: 0,
      files: 0,
      fileLinks: 0,
    });
    expect(await app.strapi.db.connection('components_profile_bmis').count({ n: '*' })).toEqual([{ n: 0 }]);
    for (const file of diskPaths(picture)) expect(fs.existsSync(file), file).toBe(false);
    // Shared data stays.
    expect(await app.strapi.db.query('api::ingredient.ingredient').count()).toBe(6);
  });

  it("refuses the deleted user's token afterwards, and the login", async () => {
    const profile = await app.me(alice.jwt);
    expect(profile.status).toBe(401);
    expect(profile.body.error.name).toBe('UnauthorizedError');

    const again = await deleteAccount(alice.jwt);
    expect(again.status).toBe(401);

    const login = await request<ApiError>(app.baseUrl, 'POST', '/api/auth/local', {
      body: { identifier: 'alice', password: alice.password },
    });
    expect(login.status).toBe(400);
    expect(login.body.error.message).toBe('Invalid identifier or password');
  });

  it('lets the same address sign up again afterwards', async () => {
    const again = await register('alice');
    expect(again.id).not.toBe(alice.id);
  });
});

/** POST /api/upload of a 640 × 480 PNG as the member's profile picture (stored with a thumbnail and a small size). */
async function uploadOverHttp(member: Member, name: string, colour: string): Promise<StoredFile> {
  const bytes = await sharp({ create: { width: 640, height: 480, channels: 3, background: colour } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  form.append('refId', String(member.id));
  form.append('ref', USERS);
  form.append('field', 'profile_picture');
  const res = await fetch(`${app.baseUrl}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${member.jwt}` }, body: form });
  expect(res.status).toBe(201);
  return ((await res.json()) as StoredFile[])[0];
}

describe('deletion removes every file the member ever uploaded, linked or not', () => {
  it('pictures uploaded at once, and a replaced one whose removal failed, are gone from disk and the files table; others’ stay', async () => {
    const carol = await register('carol');
    const dave = await register('dave');
    const uploaded: StoredFile[] = [await uploadOverHttp(carol, 'one.png', '#111111')];

    // The disk refuses the removal of the replaced picture once: it stays behind, unlinked.
    const provider = app.strapi.plugin('upload').provider as { delete(file: unknown): Promise<unknown> };
    const originalDelete = provider.delete;
    let failures = 1;
    provider.delete = async function (this: unknown, file: unknown) {
      if (failures-- > 0) throw new Error('EIO: the disk refused');
      return originalDelete.call(this, file);
    };
    const logger = app.strapi.log as unknown as { silent: boolean };
    logger.silent = true; // the failed removal is logged
    try {
      uploaded.push(await uploadOverHttp(carol, 'two.png', '#222222'));
    } finally {
      provider.delete = originalDelete;
      logger.silent = false;
    }
    expect(await app.strapi.db.query(USERS).findOne({ where: { id: carol.id }, populate: ['profile_picture'] })).toMatchObject({
      profile_picture: { id: uploaded[1].id },
    });
    expect(await app.strapi.db.query('plugin::upload.file').findOne({ where: { id: uploaded[0].id } })).not.toBeNull();

    // Five at once.
    const colours = ['#330000', '#003300', '#000033', '#333300', '#003333'];
    uploaded.push(...(await Promise.all(colours.map((colour, n) => uploadOverHttp(carol, `at-once-${n}.png`, colour)))));
    const davesPicture = await uploadOverHttp(dave, 'dave.png', '#999999');

    const res = await deleteAccount(carol.jwt);
    expect(res.status).toBe(200);

    const ids = uploaded.map((file) => file.id);
    expect(await app.strapi.db.connection('files').whereIn('id', ids).count({ n: '*' })).toEqual([{ n: 0 }]);
    expect(await app.strapi.db.connection('files').where({ owner_member_id: carol.id }).count({ n: '*' })).toEqual([{ n: 0 }]);
    for (const file of uploaded) for (const onDisk of diskPaths(file)) expect(fs.existsSync(onDisk), onDisk).toBe(false);
    for (const file of uploaded) expect((await fetch(app.baseUrl + file.url)).status, file.url).toBe(404);
    // Another member's picture stays.
    for (const onDisk of diskPaths(davesPicture)) expect(fs.existsSync(onDisk), onDisk).toBe(true);
    expect(await app.strapi.db.query('plugin::upload.file').count({ where: { id: davesPicture.id } })).toBe(1);
  });

  it('uploads racing the deletion either finish first (and their files go) or find the account gone: nothing is left', async () => {
    const frank = await register('frank');
    const bytes = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#abcdef' } })
      .png()
      .toBuffer();
    const send = async (n: number) => {
      const form = new FormData();
      form.append('files', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), `race-${n}.png`);
      form.append('refId', String(frank.id));
      form.append('ref', USERS);
      form.append('field', 'profile_picture');
      const res = await fetch(`${app.baseUrl}/api/upload`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${frank.jwt}` },
        body: form,
      });
      return { status: res.status, body: (await res.json()) as StoredFile[] };
    };
    const [uploads, deleted] = await Promise.all([Promise.all([0, 1, 2, 3].map(send)), deleteAccount(frank.jwt)]);
    expect(deleted.status).toBe(200);
    for (const res of uploads) expect([201, 401]).toContain(res.status);
    expect(await app.strapi.db.connection('files').where({ owner_member_id: frank.id }).count({ n: '*' })).toEqual([{ n: 0 }]);
    for (const res of uploads.filter((answer) => answer.status === 201)) {
      for (const onDisk of diskPaths(res.body[0])) expect(fs.existsSync(onDisk), onDisk).toBe(false);
    }
  });

  it('an admin’s media file set as the member’s picture is unlinked, not deleted', async () => {
    const erin = await register('erin');
    const admin = await app.strapi.db.query('admin::user').create({
      data: { firstname: 'Ada', lastname: 'Admin', email: 'ada.admin@example.com', isActive: true },
    });
    const filepath = path.join(tmpDir, 'banner.png');
    await sharp({ create: { width: 640, height: 480, channels: 3, background: '#00ff00' } })
      .png()
      .toFile(filepath);
    const [media] = (await app.strapi
      .plugin('upload')
      .service('upload')
      .upload(
        {
          data: { ref: USERS, refId: erin.id, field: 'profile_picture' },
          files: { filepath, originalFilename: 'banner.png', mimetype: 'image/png', size: fs.statSync(filepath).size },
        },
        { user: { id: admin.id } },
      )) as StoredFile[];

    expect((await deleteAccount(erin.jwt)).status).toBe(200);
    expect(await app.strapi.db.query('plugin::upload.file').count({ where: { id: media.id } })).toBe(1);
    for (const onDisk of diskPaths(media)) expect(fs.existsSync(onDisk), onDisk).toBe(true);
    expect(
      await app.strapi.db.connection('files_related_mph').where({ related_id: erin.id, related_type: USERS }).count({ n: '*' }),
    ).toEqual([{ n: 0 }]);
  });
});

describe('account-deletion service', () => {
  it('refuses duplicate clean-up names and non-functions', () => {
    expect(() => deletion().registerCleanup('test-recorder', () => undefined)).toThrow(/already registered/);
    expect(() => deletion().registerCleanup('bad', 'nope' as never)).toThrow(/must be a function/);
    // After the app's own clean-ups (e.g. subscriptions), in registration order.
    expect(deletion().cleanups().slice(-2)).toEqual(['test-recorder', 'test-flaky']);
  });

  it('reports an unknown user as not found', async () => {
    await expect(deletion().deleteAccount(999_999)).rejects.toMatchObject({ name: 'NotFoundError' });
  });
});
