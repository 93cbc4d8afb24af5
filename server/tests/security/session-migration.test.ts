import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boot, type TestApp } from '../helpers/app';
import type { ApiError, AuthResponse } from '../helpers/types';
import { SIGNED_OUT_REASON, type SessionsResponse } from '../../src/contract/sessions';
import { CUT_OFF_COLUMN, USERS_TABLE, oldToken as signOldToken, schemaWithCutOff } from '../helpers/legacy-sessions';

/**
 * Upgrading from the per-member revocation cut-off (`up_users.sessions_valid_after`) to session rows
 * only (src/security/sessions/legacy-tokens.ts) signs no one out and brings no revoked token back. The
 * first boot lays the database out as the release before the change left it: the column, tracked in
 * Strapi's stored schema, with cut-offs, and tokens without a sid. The second boot is the upgrade.
 */

const USERS = USERS_TABLE;
const COLUMN = CUT_OFF_COLUMN;
const SESSIONS = 'api::member-session.member-session';
const JWT_SECRET = crypto.randomBytes(16).toString('base64');
const env = { JWT_SECRET };

let app: TestApp | undefined;
let databaseFile: string;

type Answer = Partial<AuthResponse> & Partial<ApiError> & Partial<SessionsResponse>;

const call = (method: string, urlPath: string, options: { body?: unknown; token?: string } = {}) =>
  app!.call<Answer>(method, urlPath, options);

const works = async (token: string) => (await call('GET', '/api/users/me', { token })).status;
const sidOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as { sid: string }).sid;

const oldToken = (payload: { id: number; iatMs?: number }) => signOldToken(JWT_SECRET, payload);

const register = (name: string) => app!.register(name);

/** The column and its tracking in Strapi's stored schema, as the release before the change had them. */
async function restoreOldColumn(strapi: TestApp['strapi']): Promise<void> {
  const knex = strapi.db.connection;
  await knex.schema.alterTable(USERS, (table) => table.bigInteger(COLUMN));
  const stored = (await knex('strapi_database_schema').first()) as { id: number; schema: string | object };
  const schema = schemaWithCutOff(stored.schema);
  expect(schema).not.toBeNull();
  await knex('strapi_database_schema').where({ id: stored.id }).update({ schema, hash: 'the release before session rows' });
}

const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

/** Stops and boots again on the same database file and token secret. */
async function restart(): Promise<void> {
  const running = app!;
  app = undefined;
  await running.stop({ keepDatabase: true });
  app = await boot({ limits: 'raised', env, databaseFile });
}

beforeAll(async () => {
  app = await boot({ limits: 'raised', env });
  databaseFile = app.databaseFile!;
  const knex = app!.strapi.db.connection;
  const ann = await register('legacyann');
  const bob = await register('legacybob');
  const cid = await register('legacycid');
  Object.assign(ids, { ann: ann.id, bob: bob.id, cid: cid.id });
  tokens.annDevice = ann.jwt;
  tokens.cidBefore = cid.jwt;

  await restoreOldColumn(app!.strapi);
  const cutOff = Date.now();
  // Ann never revoked anything (no cut-off); Bob and Cid logged out everywhere at `cutOff`.
  await knex(USERS)
    .where('id', bob.id)
    .update({ [COLUMN]: cutOff });
  await knex(USERS)
    .where('id', cid.id)
    .update({ [COLUMN]: cutOff });
  await new Promise((resolve) => setTimeout(resolve, 5));
  const later = await call('POST', '/api/auth/local', { body: { identifier: 'legacycid', password: 'legacycid-Pass-1' } });
  expect(later.status).toBe(200);
  tokens.cidAfter = later.body.jwt!;

  tokens.annOld = oldToken({ id: ann.id, iatMs: Date.now() - 60_000 });
  tokens.annOlder = oldToken({ id: ann.id });
  tokens.bobBeforeCutOff = oldToken({ id: bob.id, iatMs: cutOff - 60_000 });
  tokens.bobAfterCutOff = oldToken({ id: bob.id, iatMs: cutOff + 1 });
  await restart();
}, 240_000);

afterAll(async () => {
  await app?.stop();
});

describe('the upgrade to session rows', () => {
  it('drops the cut-off column and gives each member one unlisted legacy row', async () => {
    expect(await app!.strapi.db.connection.schema.hasColumn(USERS, COLUMN)).toBe(false);
    const legacy = (await app!.strapi.db.query(SESSIONS).findMany({ where: { member_id: ids.bob } })) as {
      sid: string;
      issued_at: string;
    }[];
    expect(legacy.map((row) => row.sid)).toContain(`legacy.${ids.bob}`);
    const list = await call('GET', '/api/sessions', { token: tokens.annOld });
    expect(list.status).toBe(200);
    expect(list.body.sessions!.map((session) => session.id)).toEqual([sidOf(tokens.annDevice)]);
  });

  it('keeps every token the cut-off let through working, and refuses every one it refused', async () => {
    expect(await works(tokens.annOld)).toBe(200);
    expect(await works(tokens.annOlder)).toBe(200);
    expect(await works(tokens.annDevice)).toBe(200);
    expect(await works(tokens.bobAfterCutOff)).toBe(200);
    expect(await works(tokens.bobBeforeCutOff)).toBe(401);
    expect(await works(tokens.cidAfter)).toBe(200);
    // A session row the cut-off had already refused is revoked, and its device is told so.
    const refused = await call('GET', '/api/users/me', { token: tokens.cidBefore });
    expect(refused.status).toBe(401);
    expect(refused.body.error?.details).toEqual({ reason: SIGNED_OUT_REASON });
  });

  it('"Log out of all devices" ends the old tokens too, also after another restart', async () => {
    expect((await call('POST', '/api/auth/logout-all', { token: tokens.annOld })).status).toBe(200);
    // Re-read: Ann's legacy row is revoked in the database, and nothing of hers works.
    const row = (await app!.strapi.db.query(SESSIONS).findOne({ where: { sid: `legacy.${ids.ann}` } })) as { revoked_at: unknown } | null;
    expect(row?.revoked_at).not.toBeNull();
    for (const token of [tokens.annOld, tokens.annOlder, tokens.annDevice]) expect(await works(token)).toBe(401);

    await restart();
    for (const token of [tokens.annOld, tokens.annOlder, tokens.annDevice]) expect(await works(token)).toBe(401);
    expect(await works(tokens.bobAfterCutOff)).toBe(200);
  }, 240_000);

  it('a password change ends a member’s old tokens as well', async () => {
    await app!.strapi.plugin('users-permissions').service('user').edit(ids.bob, { password: 'Bob-New-Pass-42' });
    expect(await works(tokens.bobAfterCutOff)).toBe(401);
  });
});
