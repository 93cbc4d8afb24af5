import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { bootStrapi, request, type TestStrapi } from '../helpers/strapi';
import type { AuthResponse, Ingredient, ListResponse } from '../helpers/types';

const { Client } = createRequire(import.meta.url)('pg') as typeof import('pg');

const connection = {
  host: process.env.TEST_PG_HOST ?? '127.0.0.1',
  port: Number(process.env.TEST_PG_PORT ?? 5432),
  user: process.env.TEST_PG_USER ?? 'postgres',
  password: process.env.TEST_PG_PASSWORD ?? '',
  database: process.env.TEST_PG_DATABASE ?? 'test',
};

const admin = async <T>(work: (client: InstanceType<typeof Client>) => Promise<T>): Promise<T> => {
  const client = new Client({ ...connection, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

const reachable = await admin(async () => true).catch((error: Error) => {
  console.warn(`[postgres.test] skipped: no PostgreSQL at ${connection.host}:${connection.port} (${error.message})`);
  return false;
});

describe.skipIf(!reachable)('PostgreSQL (DATABASE_CLIENT=postgres)', () => {
  const schema = `carnivo_test_${crypto.randomBytes(4).toString('hex')}`;
  let app: TestStrapi;

  beforeAll(async () => {
    await admin((client) => client.query(`CREATE SCHEMA "${schema}"`));
    app = await bootStrapi({
      env: {
        DATABASE_CLIENT: 'postgres',
        DATABASE_HOST: connection.host,
        DATABASE_PORT: String(connection.port),
        DATABASE_NAME: connection.database,
        DATABASE_USERNAME: connection.user,
        DATABASE_PASSWORD: connection.password,
        DATABASE_SCHEMA: schema,
        DATABASE_POOL_MIN: '0',
      },
    });
  });

  afterAll(async () => {
    await app?.stop();
    await admin((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
  });

  it('stores its tables in the configured schema', async () => {
    const tables = await admin((client) =>
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
    const body = { username: 'pguser', email: 'pguser@example.com', password: 'correct-horse-9' };
    const reg = await request<AuthResponse>(app.baseUrl, 'POST', '/api/auth/local/register', { body });
    expect(reg.status).toBe(200);

    const login = await request<AuthResponse>(app.baseUrl, 'POST', '/api/auth/local', {
      body: { identifier: 'pguser@example.com', password: body.password },
    });
    expect(login.status).toBe(200);
    expect(login.body.user.id).toBe(reg.body.user.id);

    const me = await request<{ username: string }>(app.baseUrl, 'GET', '/api/users/me?populate=*', { token: login.body.jwt });
    expect(me.status).toBe(200);
    expect(me.body.username).toBe('pguser');
  });
});
