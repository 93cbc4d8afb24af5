import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { bootStrapi, request, type TestStrapi } from '../helpers/strapi';
import { MEMBER_FIELDS, type ApiError, type AuthResponse, type Ingredient } from '../helpers/types';
import { hashEmailChangeSecret } from '../../src/api/account/services/email-change';
import { signUp, type Member } from '../helpers/members';

const require = createRequire(import.meta.url);
const sharp = require('sharp') as typeof import('sharp').default;

// Order matters: sections share two users, and the login rate limit (10 per minute per IP on
// /api/auth/local) is shared by the whole file, so only a few logins happen here.
const USERS = 'plugin::users-permissions.user';
const FILES = 'plugin::upload.file';

let app: TestStrapi;

let alice: Member;
let bob: Member;

interface MediaFile {
  id: number;
  url: string;
  mime: string;
  ext: string;
  name: string;
  formats: Record<string, { url: string }> | null;
}
interface Me {
  id: number;
  username: string;
  email: string;
  diet_preference: string;
  goal_weight: number | null;
  goal_reminder: string;
  personal_goal_note: string | null;
  ingredients: Ingredient[];
  bmi: {
    id: number;
    currentWeight: number;
    height: number;
    Gender: string;
    date_of_birth: string | null;
    idealBmiWeight: string | null;
  } | null;
  profile_picture: MediaFile | null;
  [key: string]: unknown;
}

const register = (username: string) => signUp(app.baseUrl, username);

const put = (member: Member | null, id: number | string, body: unknown) =>
  request<Me & ApiError>(app.baseUrl, 'PUT', `/api/users/${id}`, { body, token: member?.jwt });
const me = async (member: Member): Promise<Me> => {
  const res = await request<Me>(app.baseUrl, 'GET', '/api/users/me?populate=*', { token: member.jwt });
  expect(res.status).toBe(200);
  return res.body;
};
/** The stored row, private fields included, straight from the database. */
const stored = (id: number) =>
  app.strapi.db.query(USERS).findOne({ where: { id }, populate: ['role', 'bmi', 'ingredients', 'profile_picture'] });
const login = (identifier: string, password: string) =>
  request<AuthResponse & ApiError>(app.baseUrl, 'POST', '/api/auth/local', { body: { identifier, password } });

const information = (overrides: Record<string, unknown> = {}, bmi: Record<string, unknown> = {}) => ({
  username: alice.username,
  email: alice.email,
  bmi: { currentWeight: 90, height: 180, Gender: 'Male', date_of_birth: '1990-05-01', idealBmiWeight: '72.9', ...bmi },
  ...overrides,
});

// --- uploads ---------------------------------------------------------------------------------

const uploaded: string[] = [];
const publicDir = () => app.strapi.dirs.static.public;
const diskPaths = (file: MediaFile) =>
  [file.url, ...Object.values(file.formats ?? {}).map((format) => format.url)].map((url) => path.join(publicDir(), url));

const png = (width = 64, height = 64, colour = '#b22222') =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

async function upload(
  member: Member | null,
  parts: {
    file?: { bytes: Buffer; name: string; type: string } | null;
    files?: { bytes: Buffer; name: string; type: string }[];
    fields?: Record<string, string>;
    query?: string;
  },
) {
  const form = new FormData();
  const files = parts.files ?? (parts.file ? [parts.file] : []);
  for (const file of files) form.append('files', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  for (const [name, value] of Object.entries(parts.fields ?? {})) form.append(name, value);
  const res = await fetch(`${app.baseUrl}/api/upload${parts.query ?? ''}`, {
    method: 'POST',
    headers: member ? { Authorization: `Bearer ${member.jwt}` } : {},
    body: form,
  });
  const body = (await res.json()) as MediaFile[] & ApiError;
  if (res.status === 201) for (const file of body) uploaded.push(...diskPaths(file));
  return { status: res.status, body };
}
const ownPicture = (member: Member, file: { bytes: Buffer; name: string; type: string }, fields: Record<string, string> = {}) =>
  upload(member, { file, fields: { refId: String(member.id), ref: USERS, field: 'profile_picture', ...fields } });

beforeAll(async () => {
  app = await bootStrapi();
  alice = await register('alice');
  bob = await register('bobby');
});

afterAll(async () => {
  for (const file of uploaded) fs.rmSync(file, { force: true });
  await app?.stop();
});

describe('GET /api/users/me?populate=*', () => {
  it('answers the SPEC §3 fields, populated, and nothing private', async () => {
    const body = await me(alice);
    expect(Object.keys(body).sort()).toEqual([...MEMBER_FIELDS].sort());
    expect(JSON.stringify(body)).not.toMatch(/password|resetPasswordToken|confirmationToken|resetPasswordTokenExpiresAt|email_change_/);
  });
});

describe('PUT /api/users/:id — who', () => {
  it('refuses a visitor without a token', async () => {
    const res = await put(null, alice.id, { diet_preference: 'Ketovore' });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe('Not authenticated');
    expect((await stored(alice.id)).diet_preference).toBe('Carnivore');
  });

  it('refuses user A updating user B, and changes nothing', async () => {
    const before = await stored(bob.id);
    for (const body of [{ diet_preference: 'Ketovore' }, { username: 'hijacked' }, { email: 'hijack@example.com' }]) {
      const res = await put(alice, bob.id, body);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe('You can only update your own profile');
    }
    expect(await stored(bob.id)).toEqual(before);
  });

  it('refuses an id that is not a user id of the caller (documentId, unknown id)', async () => {
    expect((await put(alice, bob.documentId, { diet_preference: 'Ketovore' })).status).toBe(403);
    expect((await put(alice, alice.documentId, { diet_preference: 'Ketovore' })).status).toBe(403);
    expect((await put(alice, 999_999, { diet_preference: 'Ketovore' })).status).toBe(403);
  });

  it('does not let A read B or list users', async () => {
    expect((await request(app.baseUrl, 'GET', `/api/users/${bob.id}`, { token: alice.jwt })).status).toBe(403);
    expect((await request(app.baseUrl, 'GET', `/api/users/${bob.id}?populate=*`, { token: alice.jwt })).status).toBe(403);
    expect((await request(app.baseUrl, 'GET', '/api/users', { token: alice.jwt })).status).toBe(403);
    expect((await request(app.baseUrl, 'GET', '/api/users/count', { token: alice.jwt })).status).toBe(403);
    expect((await request(app.baseUrl, 'DELETE', `/api/users/${bob.id}`, { token: alice.jwt })).status).toBe(403);
    expect(
      (await request(app.baseUrl, 'POST', '/api/users', { token: alice.jwt, body: { username: 'x', email: 'x@x.io', password: 'abcdef' } }))
        .status,
    ).toBe(403);
    expect(await stored(bob.id)).not.toBeNull();
  });
});

describe('PUT /api/users/:id — sections (SPEC §7 payloads)', () => {
  it('saves Information, with the bmi component', async () => {
    const res = await put(alice, alice.id, information());
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('password');
    const body = await me(alice);
    expect(body).toMatchObject({ username: 'alice', email: 'alice@example.com' });
    expect(body.bmi).toMatchObject({ currentWeight: 90, height: 180, Gender: 'Male', date_of_birth: '1990-05-01', idealBmiWeight: '72.9' });
  });

  it('replaces the bmi component as a whole, leaving no orphan component rows', async () => {
    const first = (await me(alice)).bmi!;
    const res = await put(alice, alice.id, {
      bmi: { currentWeight: 70.5, height: 165.5, Gender: 'Female', date_of_birth: null, idealBmiWeight: '58.9' },
    });
    expect(res.status).toBe(200);
    const second = (await me(alice)).bmi!;
    expect(second).toMatchObject({ currentWeight: 70.5, height: 165.5, Gender: 'Female', date_of_birth: null, idealBmiWeight: '58.9' });

    // Fields not sent are not kept from the old component.
    expect((await put(alice, alice.id, { bmi: { currentWeight: 71, height: 166 } })).status).toBe(200);
    const third = (await me(alice)).bmi!;
    expect(third).toMatchObject({ currentWeight: 71, height: 166, Gender: 'Male', date_of_birth: null, idealBmiWeight: null });

    const knex = app.strapi.db.connection;
    const links = await knex('up_users_cmps').where({ entity_id: alice.id, field: 'bmi' });
    expect(links).toHaveLength(1);
    const componentIds = [first.id, second.id, third.id];
    const rows = await knex('components_profile_bmis').whereIn('id', componentIds);
    expect(rows.map((row: { id: number }) => row.id)).toEqual([links[0].cmp_id]);

    expect((await put(alice, alice.id, information({}, { currentWeight: 90, height: 180 }))).status).toBe(200);
  });

  it('saves a bmi sent without height and weight (issue 21): the saved ones stay, none for a member who has none', async () => {
    const entries = async (member: Member) =>
      (await request<{ data: unknown[] }>(app.baseUrl, 'GET', '/api/weight-entries', { token: member.jwt })).body.data.length;
    const entriesBefore = await entries(alice);
    const unmeasured = { height: undefined, currentWeight: undefined, idealBmiWeight: undefined, Gender: 'Female' };
    expect((await put(alice, alice.id, information({}, unmeasured))).status).toBe(200);
    expect((await me(alice)).bmi).toMatchObject({
      height: 180,
      currentWeight: 90,
      Gender: 'Female',
      date_of_birth: '1990-05-01',
      idealBmiWeight: null,
    });
    // No weight sent, so no entry of today's weight either.
    expect(await entries(alice)).toBe(entriesBefore);

    expect((await me(bob)).bmi).toBeNull();
    expect((await put(bob, bob.id, { bmi: { Gender: 'Female', date_of_birth: '1990-05-01' } })).status).toBe(200);
    expect((await me(bob)).bmi).toMatchObject({
      height: null,
      currentWeight: null,
      Gender: 'Female',
      date_of_birth: '1990-05-01',
      idealBmiWeight: null,
    });

    expect((await put(alice, alice.id, information())).status).toBe(200);
  });

  it('saves Diet', async () => {
    expect((await put(alice, alice.id, { diet_preference: 'Ketovore' })).status).toBe(200);
    expect((await me(alice)).diet_preference).toBe('Ketovore');
    expect((await put(alice, alice.id, { diet_preference: 'Carnivore' })).status).toBe(200);
    expect((await me(alice)).diet_preference).toBe('Carnivore');
  });

  it('saves Interests as a list of the seeded ingredient ids, replacing the previous list', async () => {
    expect((await put(alice, alice.id, { ingredients: [1, 3, 5] })).status).toBe(200);
    expect((await me(alice)).ingredients.map((i) => i.id).sort()).toEqual([1, 3, 5]);
    expect((await put(alice, alice.id, { ingredients: [2, 2, 6] })).status).toBe(200);
    expect((await me(alice)).ingredients.map((i) => i.id).sort()).toEqual([2, 6]);
    expect((await put(alice, alice.id, { ingredients: [] })).status).toBe(200);
    expect((await me(alice)).ingredients).toEqual([]);
  });

  it('refuses unknown ingredient ids and other shapes, keeping the list', async () => {
    expect((await put(alice, alice.id, { ingredients: [1, 4] })).status).toBe(200);
    const unknown = await put(alice, alice.id, { ingredients: [1, 99] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('Unknown ingredient id: 99');
    for (const ingredients of ['1,3', [{ id: 1 }], ['abc'], [1.5], [-1], null]) {
      const res = await put(alice, alice.id, { ingredients });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('Ingredients must be a list of ingredient ids');
    }
    expect((await me(alice)).ingredients.map((i) => i.id).sort()).toEqual([1, 4]);
  });

  it('saves Goals; goal weight 0 means no goal', async () => {
    const goals = { goal_weight: 82.5, goal_reminder: 'weekly', personal_goal_note: 'Lose the winter weight' };
    expect((await put(alice, alice.id, goals)).status).toBe(200);
    expect(await me(alice)).toMatchObject(goals);
    expect((await put(alice, alice.id, { goal_weight: 0, goal_reminder: 'daily', personal_goal_note: '' })).status).toBe(200);
    expect(await me(alice)).toMatchObject({ goal_weight: 0, goal_reminder: 'daily', personal_goal_note: '' });
  });

  it('changes the e-mail (lower-cased) and the user logs in with the new one', async () => {
    // A new address needs the current password (server/tests/security-hardening.test.ts attacks that).
    const res = await put(alice, alice.id, {
      ...information({ email: '  Alice.New@Example.com ', username: '  alice  ' }),
      currentPassword: alice.password,
    });
    expect(res.status).toBe(200);
    // The new address waits for the link mailed to it (server/tests/email-change-verified.test.ts).
    expect(await me(alice)).toMatchObject({ email: 'alice@example.com', pending_email: 'alice.new@example.com', username: 'alice' });
    // As if read from the mailed link: only its hash is stored, so store one we know.
    const secret = crypto.randomBytes(32).toString('base64url');
    await app.strapi.db.query(USERS).update({ where: { id: alice.id }, data: { email_change_token: hashEmailChangeSecret(secret) } });
    const token = `${alice.id}.${secret}`;
    expect((await request(app.baseUrl, 'POST', '/api/auth/email-change/confirm', { body: { token } })).status).toBe(200);
    // The new address ends the earlier sessions.
    expect((await request(app.baseUrl, 'GET', '/api/users/me', { token: alice.jwt })).status).toBe(401);
    alice.jwt = (await login('alice.new@example.com', alice.password)).body.jwt;
    expect(await me(alice)).toMatchObject({ email: 'alice.new@example.com', username: 'alice' });
    alice.email = 'alice.new@example.com';

    const byNewEmail = await login('alice.new@example.com', alice.password);
    expect(byNewEmail.status).toBe(200);
    expect(byNewEmail.body.user.id).toBe(alice.id);
    expect((await login('alice@example.com', alice.password)).status).toBe(400);
  });

  it("refuses another user's username or e-mail", async () => {
    const name = await put(alice, alice.id, information({ username: 'bobby' }));
    expect(name.status).toBe(400);
    expect(name.body.error.message).toBe('Username already taken');
    const email = await put(alice, alice.id, { ...information({ email: 'BOBBY@example.com' }), currentPassword: alice.password });
    expect(email.status).toBe(400);
    expect(email.body.error.message).toBe('Email is already taken');
    expect(await me(alice)).toMatchObject({ username: 'alice', email: 'alice.new@example.com' });
  });
});

describe('PUT /api/users/:id — forbidden fields', () => {
  const forbidden: [string, unknown][] = [
    ['role', 1],
    ['confirmed', false],
    ['blocked', true],
    ['provider', 'google'],
    ['password', 'new-password-1'],
    ['resetPasswordToken', 'forged-reset'],
    ['resetPasswordTokenExpiresAt', '2099-01-01T00:00:00.000Z'],
    ['confirmationToken', 'forged-confirm'],
    ['stripeCustomerId', 'cus_forged'],
    ['id', 12345],
    ['documentId', 'forged-document'],
    ['createdAt', '2000-01-01T00:00:00.000Z'],
    ['publishedAt', null],
    ['profile_picture', 1],
    ['data', { diet_preference: 'Ketovore' }],
  ];

  it.each(forbidden)('refuses %s with a message naming it, and stores nothing', async (field, value) => {
    const authenticated = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
    const before = await stored(alice.id);
    const res = await put(alice, alice.id, { diet_preference: 'Ketovore', [field]: field === 'role' ? authenticated.id + 1 : value });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(`Field "${field}" cannot be updated`);
    const after = await stored(alice.id);
    expect(after).toEqual(before);
    expect(after.role.type).toBe('authenticated');
    expect(after.diet_preference).toBe('Carnivore');
    expect(after.stripeCustomerId).toBeNull();
    expect(after.resetPasswordToken).toBeNull();
  });

  it('refuses role given as a relation object, and several fields at once', async () => {
    const connect = await put(alice, alice.id, { role: { connect: [{ id: 1 }] } });
    expect(connect.status).toBe(400);
    const several = await put(alice, alice.id, { confirmed: false, blocked: true });
    expect(several.status).toBe(400);
    expect(several.body.error.message).toBe('Fields "confirmed", "blocked" cannot be updated');
    const row = await stored(alice.id);
    expect(row).toMatchObject({ confirmed: true, blocked: false });
  });

  it('refuses unknown bmi keys (a component id could point at another user’s row)', async () => {
    const bobBmi = await put(bob, bob.id, { bmi: { currentWeight: 100, height: 190 } });
    expect(bobBmi.status).toBe(200);
    const bobComponent = (await stored(bob.id)).bmi.id;
    const res = await put(alice, alice.id, information({}, { id: bobComponent, currentWeight: 31 }));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Field "bmi.id" cannot be updated');
    expect((await stored(bob.id)).bmi).toMatchObject({ id: bobComponent, currentWeight: 100 });
  });

  it('keeps the password: the old one still logs in', async () => {
    const res = await login(alice.email, alice.password);
    expect(res.status).toBe(200);
  });
});

describe('PUT /api/users/:id — SPEC §5 rules with their messages', () => {
  const cases: [string, () => Record<string, unknown>, string][] = [
    ['empty username', () => information({ username: '   ' }), 'Username is required'],
    ['missing username type', () => information({ username: 42 }), 'Username is required'],
    ['short username (after trimming)', () => information({ username: ' ab ' }), 'Username must be at least 3 characters'],
    ['bad e-mail', () => information({ email: 'not-an-email' }), 'Invalid email format'],
    ['e-mail without a dot in the domain', () => information({ email: 'a@b' }), 'Invalid email format'],
    ['zero height', () => information({}, { height: 0 }), 'Height and weight must be positive'],
    ['negative weight', () => information({}, { currentWeight: -5 }), 'Height and weight must be positive'],
    ['text weight', () => information({}, { currentWeight: 'heavy' }), 'Height and weight must be positive'],
    // Issue 21: either one sent asks for both.
    ['height without weight', () => information({}, { currentWeight: undefined }), 'Height and weight must be positive'],
    ['weight without height', () => ({ bmi: { currentWeight: 80 } }), 'Height and weight must be positive'],
    ['null height', () => information({}, { height: null }), 'Height and weight must be positive'],
    ['height 99', () => information({}, { height: 99 }), 'Height must be between 100-250 cm'],
    ['height 251', () => information({}, { height: 251 }), 'Height must be between 100-250 cm'],
    ['weight 29.9', () => information({}, { currentWeight: 29.9 }), 'Weight must be between 30-300 kg'],
    ['weight 301', () => information({}, { currentWeight: 301 }), 'Weight must be between 30-300 kg'],
    ['gender', () => information({}, { Gender: 'Other' }), 'Gender must be Male or Female'],
    ['date of birth', () => information({}, { date_of_birth: '1990-02-30' }), 'Date of birth must be a valid past date (YYYY-MM-DD)'],
    [
      'future date of birth',
      () => information({}, { date_of_birth: '2999-01-01' }),
      'Date of birth must be a valid past date (YYYY-MM-DD)',
    ],
    ['ideal weight', () => information({}, { idealBmiWeight: 'abc' }), 'Ideal BMI weight must be a number'],
    [
      'bmi not an object',
      () => ({ bmi: 'tall' }),
      'bmi must be an object with currentWeight, height, Gender, date_of_birth and idealBmiWeight',
    ],
    ['diet', () => ({ diet_preference: 'Vegan' }), 'Diet must be Carnivore or Ketovore'],
    ['goal weight 29', () => ({ goal_weight: 29 }), 'Goal weight must be between 30-300 kg'],
    ['goal weight 301', () => ({ goal_weight: 301 }), 'Goal weight must be between 30-300 kg'],
    ['negative goal weight', () => ({ goal_weight: -1 }), 'Goal weight must be between 30-300 kg'],
    ['reminder', () => ({ goal_reminder: 'hourly' }), 'Reminder must be daily or weekly'],
    ['note too long', () => ({ personal_goal_note: 'x'.repeat(2001) }), 'Personal note must be text of at most 2000 characters'],
    ['empty body', () => ({}), 'Nothing to update'],
  ];

  it.each(cases)('refuses %s', async (_name, body, message) => {
    const before = await stored(alice.id);
    const res = await put(alice, alice.id, body());
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
    expect(res.body.error.message).toBe(message);
    expect(await stored(alice.id)).toEqual(before);
  });

  it('accepts the bounds (100 and 250 cm, 30 and 300 kg)', async () => {
    expect((await put(alice, alice.id, information({}, { height: 100, currentWeight: 30 }))).status).toBe(200);
    expect((await put(alice, alice.id, information({}, { height: 250, currentWeight: 300 }))).status).toBe(200);
    expect((await put(alice, alice.id, { goal_weight: 30 })).status).toBe(200);
    expect((await put(alice, alice.id, { goal_weight: 300 })).status).toBe(200);
    expect((await put(alice, alice.id, information())).status).toBe(200);
  });

  it('refuses a body that is not a JSON object', async () => {
    const res = await request<ApiError>(app.baseUrl, 'PUT', `/api/users/${alice.id}`, { body: [1, 2], token: alice.jwt });
    expect(res.status).toBe(400);
  });
});

describe('POST /api/upload — profile picture', () => {
  let first: MediaFile;

  it('uploads a PNG onto the own profile_picture; /users/me shows it with a relative url; the file is on disk', async () => {
    const res = await ownPicture(alice, { bytes: await png(), name: 'me.png', type: 'image/png' });
    expect(res.status).toBe(201);
    first = res.body[0];
    expect(first.mime).toBe('image/png');
    const picture = (await me(alice)).profile_picture!;
    expect(picture).toMatchObject({ id: first.id, mime: 'image/png' });
    expect(picture.url).toMatch(/^\/uploads\/.+\.png$/);
    expect(fs.existsSync(path.join(publicDir(), picture.url))).toBe(true);
    const served = await fetch(app.baseUrl + picture.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
  });

  it('a second upload replaces the first: its record and files on disk are removed', async () => {
    const big = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#123456' } })
      .jpeg()
      .toBuffer();
    const firstRow = await app.strapi.db.query(FILES).findOne({ where: { id: first.id } });
    const firstPaths = diskPaths(firstRow);
    expect(firstPaths.every((file) => fs.existsSync(file))).toBe(true);

    const res = await ownPicture(alice, { bytes: big, name: 'holiday.jpg', type: 'image/jpeg' });
    expect(res.status).toBe(201);
    const second = res.body[0];
    expect((await me(alice)).profile_picture).toMatchObject({ id: second.id, mime: 'image/jpeg' });
    expect(await app.strapi.db.query(FILES).findOne({ where: { id: first.id } })).toBeNull();
    expect(firstPaths.some((file) => fs.existsSync(file))).toBe(false);
    const secondRow = await app.strapi.db.query(FILES).findOne({ where: { id: second.id } });
    expect(Object.keys(secondRow.formats ?? {}).length).toBeGreaterThan(0);
    expect(diskPaths(secondRow).every((file) => fs.existsSync(file))).toBe(true);
  });

  it('accepts GIF and WebP by content, storing the detected type whatever the browser declared', async () => {
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#00ff00' } })
      .gif()
      .toBuffer();
    const gifRes = await ownPicture(alice, { bytes: gif, name: 'anim.gif', type: 'application/octet-stream' });
    expect(gifRes.status).toBe(201);
    expect(gifRes.body[0].mime).toBe('image/gif');
    const webp = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0000ff' } })
      .webp()
      .toBuffer();
    const webpRes = await ownPicture(alice, { bytes: webp, name: 'pic.webp', type: 'image/webp' });
    expect(webpRes.status).toBe(201);
    expect((await me(alice)).profile_picture).toMatchObject({ id: webpRes.body[0].id, mime: 'image/webp' });
    expect(await app.strapi.db.query(FILES).findOne({ where: { id: gifRes.body[0].id } })).toBeNull();
  });

  const refusedWith = async (res: { status: number; body: ApiError }, status: number, message: string) => {
    expect(res.status).toBe(status);
    expect(res.body.error.message).toBe(message);
  };

  it('refuses a forged image (text named .png) and SVG', async () => {
    const before = await app.strapi.db.query(FILES).count();
    const picture = (await me(alice)).profile_picture;
    await refusedWith(
      await ownPicture(alice, { bytes: Buffer.from('this is not an image at all\n'), name: 'forged.png', type: 'image/png' }),
      400,
      'Only PNG, JPEG, GIF or WebP images can be uploaded',
    );
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    await refusedWith(
      await ownPicture(alice, { bytes: svg, name: 'x.svg', type: 'image/svg+xml' }),
      400,
      'Only PNG, JPEG, GIF or WebP images can be uploaded',
    );
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    await refusedWith(
      await ownPicture(alice, { bytes: html, name: 'x.jpg', type: 'image/jpeg' }),
      400,
      'Only PNG, JPEG, GIF or WebP images can be uploaded',
    );
    await refusedWith(
      await ownPicture(alice, { bytes: Buffer.alloc(0), name: 'empty.png', type: 'image/png' }),
      400,
      'Only PNG, JPEG, GIF or WebP images can be uploaded',
    );
    // The right magic number glued onto something that is not an image.
    const pngHeader = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const corrupt = Buffer.concat([pngHeader, Buffer.from('<script>alert(1)</script>'.repeat(20))]);
    await refusedWith(
      await ownPicture(alice, { bytes: corrupt, name: 'corrupt.png', type: 'image/png' }),
      400,
      'Only PNG, JPEG, GIF or WebP images can be uploaded',
    );
    const polyglot = Buffer.concat([Buffer.from('GIF89a'), Buffer.from('<html><script>alert(1)</script></html>')]);
    await refusedWith(
      await ownPicture(alice, { bytes: polyglot, name: 'poly.gif', type: 'image/gif' }),
      400,
      'Only PNG, JPEG, GIF or WebP images can be uploaded',
    );
    const truncated = (await png(200, 200)).subarray(0, 120);
    await refusedWith(
      await ownPicture(alice, { bytes: truncated, name: 'cut.png', type: 'image/png' }),
      400,
      'Only PNG, JPEG, GIF or WebP images can be uploaded',
    );
    expect(await app.strapi.db.query(FILES).count()).toBe(before);
    expect((await me(alice)).profile_picture).toEqual(picture);
  });

  it('names the stored file after its real type, never after the name it was sent with', async () => {
    const res = await ownPicture(alice, { bytes: await png(), name: 'evil.html', type: 'text/html' });
    expect(res.status).toBe(201);
    expect(res.body[0]).toMatchObject({ name: 'evil.png', ext: '.png', mime: 'image/png' });
    const picture = (await me(alice)).profile_picture!;
    expect(picture.url).toMatch(/^\/uploads\/evil_[a-z0-9]+\.png$/);
    const served = await fetch(app.baseUrl + picture.url);
    expect(served.headers.get('content-type')).toBe('image/png');
  });

  it('refuses a picture over 5 MB', async () => {
    const header = await png(4, 4);
    const oversized = Buffer.concat([header, Buffer.alloc(5 * 1024 * 1024 + 1 - header.length)]);
    await refusedWith(
      await ownPicture(alice, { bytes: oversized, name: 'huge.png', type: 'image/png' }),
      400,
      'The picture must be 5 MB or smaller',
    );
  });

  it("refuses an upload onto user B's profile", async () => {
    const before = await stored(bob.id);
    await refusedWith(
      await upload(alice, {
        file: { bytes: await png(), name: 'x.png', type: 'image/png' },
        fields: { refId: String(bob.id), ref: USERS, field: 'profile_picture' },
      }),
      403,
      'You can only change your own profile picture',
    );
    expect((await stored(bob.id)).profile_picture).toEqual(before.profile_picture);
  });

  it('refuses anything but the own profile picture: plain media-library uploads, other refs/fields, several files, replacing', async () => {
    const before = await app.strapi.db.query(FILES).count();
    const file = { bytes: await png(), name: 'x.png', type: 'image/png' };
    const onlyPicture =
      'Only a profile picture can be uploaded: send refId (your user id), ref "plugin::users-permissions.user" and field "profile_picture"';
    await refusedWith(await upload(alice, { file }), 400, onlyPicture);
    await refusedWith(
      await upload(alice, { file, fields: { refId: String(alice.id), ref: 'api::ingredient.ingredient', field: 'profile_picture' } }),
      400,
      onlyPicture,
    );
    await refusedWith(
      await upload(alice, { file, fields: { refId: '1', ref: 'api::ingredient.ingredient', field: 'image' } }),
      400,
      onlyPicture,
    );
    await refusedWith(await upload(alice, { file, fields: { refId: String(alice.id), ref: USERS, field: 'avatar' } }), 400, onlyPicture);
    await refusedWith(
      await upload(alice, { files: [file, file], fields: { refId: String(alice.id), ref: USERS, field: 'profile_picture' } }),
      400,
      'Send exactly one picture in the "files" field',
    );
    await refusedWith(
      await upload(alice, { fields: { refId: String(alice.id), ref: USERS, field: 'profile_picture' } }),
      400,
      'Send exactly one picture in the "files" field',
    );
    await refusedWith(
      await upload(alice, {
        file,
        fields: { refId: String(alice.id), ref: USERS, field: 'profile_picture', fileInfo: '{"name":"../x.html"}' },
      }),
      400,
      'Field "fileInfo" is not accepted with a profile picture',
    );
    await refusedWith(
      await upload(alice, { file, fields: { refId: String(alice.id), ref: USERS, field: 'profile_picture', path: '../../etc' } }),
      400,
      'Field "path" is not accepted with a profile picture',
    );
    const picture = (await me(alice)).profile_picture!;
    await refusedWith(
      await upload(alice, { file, query: `?id=${picture.id}`, fields: { refId: String(alice.id), ref: USERS, field: 'profile_picture' } }),
      400,
      'Existing files cannot be replaced or edited',
    );
    expect(await app.strapi.db.query(FILES).count()).toBe(before);
  });

  it('refuses visitors, and does not open the media library to members', async () => {
    const file = { bytes: await png(), name: 'x.png', type: 'image/png' };
    expect((await upload(null, { file, fields: { refId: String(alice.id), ref: USERS, field: 'profile_picture' } })).status).toBe(403);
    const picture = (await me(alice)).profile_picture!;
    for (const urlPath of ['/api/upload/files', `/api/upload/files/${picture.id}`]) {
      expect((await request(app.baseUrl, 'GET', urlPath, { token: alice.jwt })).status).toBe(403);
      expect((await request(app.baseUrl, 'GET', urlPath)).status).toBe(403);
    }
    expect((await request(app.baseUrl, 'DELETE', `/api/upload/files/${picture.id}`, { token: bob.jwt })).status).toBe(403);
    expect(await app.strapi.db.query(FILES).findOne({ where: { id: picture.id } })).not.toBeNull();
  });

  it('lets B upload onto B, leaving A’s picture alone', async () => {
    const alicePicture = (await me(alice)).profile_picture!;
    const res = await ownPicture(bob, { bytes: await png(32, 32, '#000000'), name: 'bob.png', type: 'image/png' });
    expect(res.status).toBe(201);
    expect((await me(bob)).profile_picture!.id).toBe(res.body[0].id);
    expect((await me(alice)).profile_picture).toEqual(alicePicture);
  });
});

describe('POST /api/auth/change-password', () => {
  const change = (member: Member | null, body: Record<string, unknown>) =>
    request<AuthResponse & ApiError>(app.baseUrl, 'POST', '/api/auth/change-password', { body, token: member?.jwt });

  it('refuses a wrong current password', async () => {
    const res = await change(bob, { currentPassword: 'wrong-one', password: 'brand-new-1', passwordConfirmation: 'brand-new-1' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('The provided current password is invalid');
  });

  it('refuses a mismatched confirmation', async () => {
    const res = await change(bob, { currentPassword: bob.password, password: 'brand-new-1', passwordConfirmation: 'brand-new-2' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Passwords do not match');
  });

  it('refuses a new password under 6 characters', async () => {
    const res = await change(bob, { currentPassword: bob.password, password: 'abc', passwordConfirmation: 'abc' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('New password must be at least 6 characters');
  });

  it('refuses a visitor', async () => {
    const res = await change(null, { currentPassword: bob.password, password: 'brand-new-1', passwordConfirmation: 'brand-new-1' });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe('Not authenticated');
  });

  it('changes the password: the new one logs in, the old one no longer does', async () => {
    const res = await change(bob, { currentPassword: bob.password, password: 'brand-new-1', passwordConfirmation: 'brand-new-1' });
    expect(res.status).toBe(200);
    expect(res.body.jwt).toEqual(expect.any(String));
    expect(res.body.user).not.toHaveProperty('password');

    const withNew = await login('bobby', 'brand-new-1');
    expect(withNew.status).toBe(200);
    expect(withNew.body.user.id).toBe(bob.id);
    const withOld = await login('bobby', bob.password);
    expect(withOld.status).toBe(400);
    expect(withOld.body.error.message).toBe('Invalid identifier or password');
  });
});
