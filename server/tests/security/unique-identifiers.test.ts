import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { freshClient, missingServices, postgresEnv, startCluster, withPostgres, type Cluster } from '../helpers/instances';
import { bootStrapi, requestFrom, type TestStrapi } from '../helpers/strapi';
import type { ApiError, AuthResponse } from '../helpers/types';
import { hashEmailChangeSecret } from '../../src/api/account/services/email-change';
import { emailChangeMessages } from '../../src/contract/emailChange';
import { RAISED_LIMITS } from '../helpers/app';

/**
 * One account per e-mail address and per username (any case), held by the database's unique
 * indexes (src/security/identifiers.ts): requests racing past the application's checks get one
 * success and "Email is already taken" or "Username already taken" for the rest, never a 5xx, on SQLite in-process and
 * on PostgreSQL across two instances; duplicates already stored are resolved at start-up.
 */

const USERS = 'plugin::users-permissions.user';
const USERNAME_TAKEN = 'Username already taken';
const EMAIL_TAKEN = 'Email is already taken';
// Many sign-ups; the limits have their own tests.

type Answer = Partial<AuthResponse> & Partial<ApiError> & { id?: number; email?: string; jwt?: string };
interface Target {
  /** The i-th concurrent request (the cluster alternates instances), each from its own client address. */
  send(i: number, method: string, path: string, options?: { body?: unknown; token?: string }): Promise<{ status: number; body: Answer }>;
  /** Rows read straight from the database, not through the server. */
  rows(where: 'email' | 'username', value: string): Promise<{ id: number; email: string; username: string }[]>;
  /** Stores the hash of `secret` as the member's pending confirmation link (as if read from the outbox). */
  armEmailChange(id: number, secret: string): Promise<void>;
}

const tag = () => crypto.randomBytes(3).toString('hex');

/** Exactly one 2xx; every other answer the given 400 message; never a 5xx. */
function expectOneWinner(answers: { status: number; body: Answer }[], message: string) {
  const statuses = answers.map((answer) => answer.status);
  expect(
    statuses.filter((status) => status >= 500),
    JSON.stringify(answers.map((a) => a.body)),
  ).toEqual([]);
  expect(statuses.filter((status) => status === 200)).toHaveLength(1);
  for (const answer of answers.filter((a) => a.status !== 200)) {
    expect(answer.status).toBe(400);
    expect(answer.body.error?.message).toBe(message);
  }
  return answers.find((answer) => answer.status === 200)!;
}

async function register(target: Target, i: number, username: string) {
  const password = `${username}-Pass-1`;
  const res = await target.send(i, 'POST', '/api/auth/local/register', { body: { username, email: `${username}@example.com`, password } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.user!.id, jwt: res.body.jwt!, username, email: `${username}@example.com`, password };
}

function raceScenarios(target: () => Target) {
  it('six sign-ups with one e-mail at once make one account', async () => {
    const email = `race-${tag()}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        target().send(i, 'POST', '/api/auth/local/register', {
          // Case variants too: users-permissions lowercases the address.
          body: { username: `racer${i}_${tag()}`, email: i % 2 ? email.toUpperCase() : email, password: 'Race-Pass-1' },
        }),
      ),
    );
    const winner = expectOneWinner(answers, EMAIL_TAKEN);
    const stored = await target().rows('email', email);
    expect(stored.map((row) => row.id)).toEqual([winner.body.user!.id]);
  });

  it('sign-ups whose usernames differ only by case make one account', async () => {
    const name = `Casey${tag()}`;
    const variants = [name, name.toLowerCase(), name.toUpperCase(), `c${name.slice(1).toUpperCase()}`];
    const answers = await Promise.all(
      variants.map((username, i) =>
        target().send(i, 'POST', '/api/auth/local/register', {
          body: { username, email: `case${i}-${tag()}@example.com`, password: 'Case-Pass-1' },
        }),
      ),
    );
    const winner = expectOneWinner(answers, USERNAME_TAKEN);
    const stored = await target().rows('username', name);
    expect(stored.map((row) => row.id)).toEqual([winner.body.user!.id]);
  });

  it('two members confirming one address at once: one gets it, the other keeps their own', async () => {
    const members = [await register(target(), 0, `mover_a${tag()}`), await register(target(), 1, `mover_b${tag()}`)];
    const wanted = `wanted-${tag()}@example.com`;
    // Both may ask for it (a pending change holds no address); the race is on the links.
    for (const [i, member] of members.entries()) {
      const asked = await target().send(i, 'PUT', `/api/users/${member.id}`, {
        token: member.jwt,
        body: { email: wanted, currentPassword: member.password },
      });
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    }
    const secrets = members.map(() => crypto.randomBytes(32).toString('base64url'));
    for (const [i, member] of members.entries()) await target().armEmailChange(member.id, secrets[i]);
    const answers = await Promise.all(
      members.map((member, i) =>
        target().send(i, 'POST', '/api/auth/email-change/confirm', { body: { token: `${member.id}.${secrets[i]}` } }),
      ),
    );
    expectOneWinner(answers, emailChangeMessages.taken);
    const holders = await target().rows('email', wanted);
    expect(holders).toHaveLength(1);
    const loser = members.find((member) => member.id !== holders[0].id)!;
    expect((await target().rows('email', loser.email)).map((row) => row.id)).toEqual([loser.id]);
  });
}

describe('on SQLite, in-process', () => {
  let app: TestStrapi;
  const target = (): Target => ({
    send: (_i, method, path, options) => requestFrom<Answer>(freshClient(), app.baseUrl, method, path, options),
    rows: async (where, value) =>
      (await app.strapi.db.query(USERS).findMany({ where: { [where]: { $eqi: value } }, select: ['id', 'email', 'username'] })) as {
        id: number;
        email: string;
        username: string;
      }[],
    armEmailChange: async (id, secret) => {
      await app.strapi.db.query(USERS).update({ where: { id }, data: { email_change_token: hashEmailChangeSecret(secret) } });
    },
  });

  beforeAll(async () => {
    app = await bootStrapi({ env: RAISED_LIMITS });
  });
  afterAll(async () => {
    await app?.stop();
  });

  raceScenarios(target);

  it('a duplicate written past the controllers (admin panel, social sign-in: the user service) is refused with the message, nothing saved', async () => {
    const owner = await register(target(), 0, `owner${tag()}`);
    const other = await register(target(), 1, `other${tag()}`);
    const userService = app.strapi.plugin('users-permissions').service('user');
    await expect(userService.edit(other.id, { email: owner.email.toUpperCase() })).rejects.toMatchObject({
      name: 'ApplicationError',
      message: EMAIL_TAKEN,
    });
    await expect(
      userService.add({ username: owner.username.toUpperCase(), email: `fresh-${tag()}@example.com`, provider: 'local' }),
    ).rejects.toMatchObject({ name: 'ApplicationError', message: 'Username already taken' });
    expect((await target().rows('email', owner.email)).map((row) => row.id)).toEqual([owner.id]);
    expect((await target().rows('email', other.email)).map((row) => row.id)).toEqual([other.id]);
  });
});

describe('start-up resolution of stored duplicate e-mails (SQLite, restarted on the same file)', () => {
  it('keeps the oldest account on the address, parks and blocks the younger ones (logged), then creates the index', async () => {
    let app = await bootStrapi({ env: RAISED_LIMITS });
    const users = () => app.strapi.db.query(USERS);
    const created: number[] = [];
    for (const name of ['first', 'second', 'third']) {
      const row = await users().create({
        data: { username: `${name}dup`, email: `${name}@example.com`, provider: 'local', password: 'x' },
      });
      created.push(row.id);
    }
    // As a database from before the index: drop it and store the duplicates directly.
    await app.strapi.db.connection.raw('DROP INDEX up_users_email_ci_unique');
    await app.strapi.db.connection.raw('UPDATE up_users SET email = ? WHERE id = ?', ['First@Example.com', created[1]]);
    await app.strapi.db.connection.raw('UPDATE up_users SET email = ? WHERE id = ?', ['first@example.com', created[2]]);
    const file = app.databaseFile!;
    await app.stop({ keepDatabase: true });

    const warnings: string[] = [];
    app = await bootStrapi({
      env: RAISED_LIMITS,
      databaseFile: file,
      beforeLoad: (strapi) => {
        const warn = strapi.log.warn.bind(strapi.log);
        vi.spyOn(strapi.log, 'warn').mockImplementation(((message: unknown) => {
          warnings.push(String(message));
          return warn(message as string);
        }) as typeof strapi.log.warn);
      },
    });
    try {
      const rows = (await users().findMany({ where: { id: { $in: created } }, orderBy: { id: 'asc' } })) as {
        email: string;
        blocked: boolean;
      }[];
      expect(rows.map(({ email, blocked }) => ({ email, blocked: Boolean(blocked) }))).toEqual([
        { email: 'first@example.com', blocked: false },
        { email: `First+duplicate-${created[1]}@Example.com.invalid`, blocked: true },
        { email: `first+duplicate-${created[2]}@example.com.invalid`, blocked: true },
      ]);
      const log = warnings.join('\n');
      expect(log).toContain(`user ${created[1]}: e-mail "First@Example.com" also belongs to an older account`);
      expect(log).toContain(`user ${created[2]}: e-mail "first@example.com" also belongs to an older account`);
      // The index is back: a new duplicate is refused by the database.
      await expect(
        app.strapi.db.connection.raw('UPDATE up_users SET email = ? WHERE id = ?', ['FIRST@example.com', created[1]]),
      ).rejects.toThrow(/UNIQUE/);
    } finally {
      await app.stop();
    }
  });
});

const missing = await missingServices();
if (missing) console.warn(`[unique-identifiers.test] PostgreSQL parts skipped: ${missing}`);

describe.skipIf(missing !== null)('on PostgreSQL, two instances', () => {
  let cluster: Cluster;
  const query = <T>(sql: string, values: unknown[] = []) =>
    withPostgres(async (db) => {
      await db.query(`SET search_path TO "${cluster.schema}"`);
      return (await db.query(sql, values)).rows as T[];
    });
  const target = (): Target => ({
    send: (i, method, path, options) => requestFrom<Answer>(freshClient(), cluster.instances[i % 2].baseUrl, method, path, options),
    rows: (where, value) =>
      query(`SELECT id, email, username FROM up_users WHERE lower(${where === 'email' ? 'email' : 'username'}) = lower($1) ORDER BY id`, [
        value,
      ]),
    armEmailChange: async (id, secret) => {
      await query('UPDATE up_users SET email_change_token = $1 WHERE id = $2', [hashEmailChangeSecret(secret), id]);
    },
  });

  beforeAll(async () => {
    cluster = await startCluster(2, RAISED_LIMITS);
  }, 300_000);
  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  raceScenarios(target);

  it('an e-mail-change link naming an id past the integer column is refused like any other, not a 500', async () => {
    for (const path of ['/api/auth/email-change/confirm', '/api/auth/email-change/cancel']) {
      const res = await target().send(0, 'POST', path, { body: { token: `99999999999.${'A'.repeat(43)}` } });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
    }
  });
});

describe.skipIf(missing !== null)('start-up resolution on PostgreSQL (in-process, restarted on the same schema)', () => {
  it('parks and blocks the younger duplicates and creates the index', async () => {
    const schema = `carnivo_dup_${crypto.randomBytes(4).toString('hex')}`;
    await withPostgres((db) => db.query(`CREATE SCHEMA "${schema}"`));
    const env = {
      ...RAISED_LIMITS,
      ...postgresEnv(schema),
    };
    const sql = <T>(text: string, values: unknown[] = []) =>
      withPostgres(async (db) => {
        await db.query(`SET search_path TO "${schema}"`);
        return (await db.query(text, values)).rows as T[];
      });
    try {
      let app = await bootStrapi({ env });
      const ids: number[] = [];
      for (const name of ['pgfirst', 'pgsecond']) {
        ids.push(
          (await app.strapi.db.query(USERS).create({ data: { username: name, email: `${name}@example.com`, provider: 'local' } })).id,
        );
      }
      await app.stop();
      await sql('DROP INDEX up_users_email_ci_unique');
      await sql('UPDATE up_users SET email = $1 WHERE id = $2', ['PGFirst@example.com', ids[1]]);

      const warnings: string[] = [];
      app = await bootStrapi({
        env,
        beforeLoad: (strapi) => {
          vi.spyOn(strapi.log, 'warn').mockImplementation(
            ((message: unknown) => void warnings.push(String(message))) as unknown as typeof strapi.log.warn,
          );
        },
      });
      await app.stop();
      expect(warnings).toContain(
        `[identifiers] user ${ids[1]}: e-mail "PGFirst@example.com" also belongs to an older account; changed to "PGFirst+duplicate-${ids[1]}@example.com.invalid" and blocked`,
      );
      const rows = await sql<{ id: number; email: string; blocked: boolean }>(
        'SELECT id, email, blocked FROM up_users WHERE id = ANY($1) ORDER BY id',
        [ids],
      );
      expect(rows.map(({ email, blocked }) => ({ email, blocked: Boolean(blocked) }))).toEqual([
        { email: 'pgfirst@example.com', blocked: false },
        { email: `PGFirst+duplicate-${ids[1]}@example.com.invalid`, blocked: true },
      ]);
      await expect(sql('UPDATE up_users SET email = $1 WHERE id = $2', ['PGFIRST@EXAMPLE.COM', ids[1]])).rejects.toThrow(
        /up_users_email_ci_unique/,
      );
    } finally {
      await withPostgres((db) => db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    }
  }, 180_000);
});
