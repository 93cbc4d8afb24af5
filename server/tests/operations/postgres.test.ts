import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { request } from '../helpers/strapi';
import { boot, type TestApp } from '../helpers/app';
import { PG, postgresEnv, withPostgres } from '../helpers/instances';
import type { Ingredient, ListResponse } from '../helpers/types';

const reachable = await withPostgres(async () => true).catch((error: Error) => {
  console.warn(`[postgres.test] skipped: no PostgreSQL at ${PG.host}:${PG.port} (${error.message})`);
  return false;
});

describe.skipIf(!reachable)('PostgreSQL (DATABASE_CLIENT=postgres)', () => {
  const schema = `carnivo_test_${crypto.randomBytes(4).toString('hex')}`;
  let app: TestApp;

  beforeAll(async () => {
    await withPostgres((client) => client.query(`CREATE SCHEMA "${schema}"`));
    app = await boot({ env: postgresEnv(schema) });
  });

  afterAll(async () => {
    await app?.stop();
    await withPostgres((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
  });

  it('stores its tables in the configured schema', async () => {
    const tables = await withPostgres((client) =>
      client.query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [schema]),
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual(expect.arrayContaining(['up_users', 'ingredients']));
  });

  it('seeds the six ingredients with ids 1..6', async () => {
    const res = await request<ListResponse<Ingredient>>(app.baseUrl, 'GET', '/api/ingredients?sort=id');
    expect(res.status).toBe(200);
    expect(res.body.data.map((i) => [i.id, i.ingredient_name])).toEqual([
      [1, 'Eggs'],
      [2, 'Honey'],
      [3, 'Cheese'],
      [4, 'Yogurt'],
      [5, 'Butter'],
      [6, 'Milk'],
    ]);
  });

  it('registers and logs in', async () => {
    const reg = await app.register('pguser', { password: 'correct-horse-9' });

    const login = await app.login('pguser@example.com', reg.password);
    expect(login.status).toBe(200);
    expect(login.body.user.id).toBe(reg.id);

    const me = await request<{ username: string }>(app.baseUrl, 'GET', '/api/users/me?populate=*', { token: login.body.jwt });
    expect(me.status).toBe(200);
    expect(me.body.username).toBe('pguser');
  });
});
