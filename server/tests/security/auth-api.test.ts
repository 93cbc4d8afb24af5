import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { request, requestFrom } from '../helpers/strapi';
import { boot, type TestApp } from '../helpers/app';
import { MEMBER_FIELDS, type ApiError, type AuthResponse, type Ingredient, type ListResponse } from '../helpers/types';
import { apiRouters, rolePermissions, syncRolePermissions } from '../../src/bootstrap/permissions';
import { registerBody, signUpMessages } from '../../src/contract/auth';
import { usernameMessages } from '../../src/contract/fieldRules';
import { firstError } from '../../src/contract/schema';

// Order matters: the login rate-limit test exhausts /api/auth/local for this process,
// and the restart test stops the shared instance.
let app: TestApp;
let alice: AuthResponse;
const password = 'correct-horse-9';

const register = (body: Record<string, unknown>) =>
  request<AuthResponse & ApiError>(app.baseUrl, 'POST', '/api/auth/local/register', { body });
const login = (identifier: string, pw: string) => app.login(identifier, pw);

beforeAll(async () => {
  app = await boot();
});

afterAll(async () => {
  await app?.stop();
});

describe('registration and login', () => {
  it('registers a user and answers jwt + user without secrets', async () => {
    const res = await register({ username: 'alice', email: 'Alice@Example.com', password });
    expect(res.status).toBe(200);
    alice = res.body;
    expect(alice.jwt).toEqual(expect.any(String));
    expect(alice.user).toMatchObject({ username: 'alice', email: 'alice@example.com', confirmed: true });
    expect(Date.now() - Date.parse(alice.user.createdAt)).toBeLessThan(60_000);
    expect(alice.user).not.toHaveProperty('password');
    expect(alice.user).not.toHaveProperty('confirmationToken');
  });

  it('issues JWTs that expire after 7 days', () => {
    const payload = JSON.parse(Buffer.from(alice.jwt.split('.')[1], 'base64url').toString()) as {
      id: number;
      iat: number;
      exp: number;
    };
    expect(payload.id).toBe(alice.user.id);
    expect(payload.exp - payload.iat).toBe(7 * 24 * 60 * 60);
  });

  it('logs in by username and by email', async () => {
    const byName = await login('alice', password);
    expect(byName.status).toBe(200);
    expect(byName.body.user.id).toBe(alice.user.id);
    expect(byName.body.jwt).toEqual(expect.any(String));

    const byEmail = await login('alice@example.com', password);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.user.id).toBe(alice.user.id);
  });

  it('refuses a wrong password', async () => {
    const res = await login('alice', 'wrong-password');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Invalid identifier or password');
    expect(res.body).not.toHaveProperty('jwt');
  });

  it('refuses a duplicate username and a duplicate email', async () => {
    const sameName = await register({ username: 'alice', email: 'other@example.com', password });
    expect(sameName.status).toBe(400);
    expect(sameName.body.error.message).toBe('Username already taken');

    const sameEmail = await register({ username: 'alice2', email: 'alice@example.com', password });
    expect(sameEmail.status).toBe(400);
    expect(sameEmail.body.error.message).toBe('Email is already taken');
  });

  it('refuses a sign-up in the form’s words (the contract’s registerBody), and writes no account', async () => {
    // The same cases the form's unit test gives (tests/unit/validation.test.ts): the route answers as the form does.
    const cases: [Record<string, unknown>, string][] = [
      [{ username: '  ', email: 'blank@example.com', password }, signUpMessages.missingFields],
      [{ email: 'nousername@example.com', password }, signUpMessages.missingFields],
      [{ username: 'noaddress', email: 42, password }, signUpMessages.missingFields],
      [{ username: 'nopassword', email: 'nopassword@example.com', password: '   ' }, signUpMessages.missingFields],
      [{ username: 'badaddress', email: 'a b@c.io', password }, signUpMessages.invalidEmail],
      [{ username: ' me ', email: 'short@example.com', password }, usernameMessages.tooShort],
      [{ username: 'rib eye', email: 'ribeye@example.com', password }, usernameMessages.invalidCharacters],
    ];
    // Each from an address of its own: this file keeps the auth routes' per-address limit as shipped.
    const registerFrom = (n: number, body: Record<string, unknown>) =>
      requestFrom<AuthResponse & ApiError>(`127.0.31.${n}`, app.baseUrl, 'POST', '/api/auth/local/register', { body });
    for (const [n, [body, message]] of cases.entries()) {
      const res = await registerFrom(n + 2, body);
      expect([res.status, res.body.error?.message], JSON.stringify(body)).toEqual([400, message]);
      expect(firstError(registerBody, body)).toBe(message);
    }
    const written = await app.strapi.db
      .query('plugin::users-permissions.user')
      .count({ where: { email: { $in: cases.map(([body]) => body.email).filter((email) => typeof email === 'string') } } });
    expect(written).toBe(0);
    // The name and address are stored trimmed.
    const trimmed = await registerFrom(1, { username: '  brisket  ', email: ' brisket@example.com ', password });
    expect(trimmed.status, JSON.stringify(trimmed.body)).toBe(200);
    expect(trimmed.body.user).toMatchObject({ username: 'brisket', email: 'brisket@example.com' });
  });

  it('does not let registration set confirmed, role or stripeCustomerId', async () => {
    const authenticated = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
    const res = await register({
      username: 'mallory',
      email: 'mallory@example.com',
      password,
      confirmed: false,
      blocked: false,
      role: authenticated.id + 100,
      stripeCustomerId: 'cus_forged',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^Invalid parameters: /);
    expect(res.body.error.message).toContain('stripeCustomerId');

    const stored = await app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { username: 'mallory' } });
    expect(stored).toBeNull();

    const plain = await app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { id: alice.user.id }, populate: ['role'] });
    expect(plain.stripeCustomerId).toBeNull();
    expect(plain.role.type).toBe('authenticated');
  });
});

describe('GET /api/users/me', () => {
  // SPEC §6: a profile call without a token gives 'Not authenticated' (Strapi alone would answer the public role's 403).
  it('refuses a request without a token', async () => {
    const res = await request<ApiError>(app.baseUrl, 'GET', '/api/users/me?populate=*');
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ name: 'UnauthorizedError', message: 'Not authenticated' });
  });

  it("answers 'Not authenticated' to every other member call without a token, and changes nothing", async () => {
    const before = await request<{ username: string }>(app.baseUrl, 'GET', '/api/users/me', { token: alice.jwt });
    const calls: [string, string, unknown?][] = [
      ['PUT', `/api/users/${alice.user.id}`, { username: 'taken-over' }],
      ['POST', '/api/auth/change-password', { currentPassword: 'x', password: 'y1234567', passwordConfirmation: 'y1234567' }],
      ['GET', '/api/subscriptions/current'],
      ['POST', '/api/subscriptions', { priceId: 'price_x' }],
      ['POST', '/api/subscriptions/cancel'],
      ['POST', '/api/auth/logout-all'],
    ];
    for (const [method, path, body] of calls) {
      const res = await request<ApiError>(app.baseUrl, method, path, body === undefined ? {} : { body });
      expect([res.status, res.body.error?.message], `${method} ${path}`).toEqual([401, 'Not authenticated']);
    }
    const after = await request<{ username: string }>(app.baseUrl, 'GET', '/api/users/me', { token: alice.jwt });
    expect(after.body.username).toBe(before.body.username);
  });

  it('answers 401 for an invalid or expired token', async () => {
    const res = await request<ApiError>(app.baseUrl, 'GET', '/api/users/me', { token: `${alice.jwt}x` });
    expect(res.status).toBe(401);
    expect(res.body.error.name).toBe('UnauthorizedError');
  });

  it('answers the SPEC §3 user fields with populated relations and no secrets', async () => {
    await app.strapi.documents('plugin::users-permissions.user').update({
      documentId: alice.user.documentId,
      data: {
        ingredients: [1, 3],
        goal_weight: 80.5,
        bmi: { currentWeight: 90, height: 180, idealBmiWeight: '72.9', date_of_birth: '1990-05-01' },
      },
    });
    await app.strapi.db
      .query('plugin::users-permissions.user')
      .update({ where: { id: alice.user.id }, data: { resetPasswordToken: 'reset-secret', confirmationToken: 'confirm-secret' } });

    const res = await request<Record<string, unknown>>(app.baseUrl, 'GET', '/api/users/me?populate=*', {
      token: alice.jwt,
    });
    expect(res.status).toBe(200);
    const me = res.body;
    expect(Object.keys(me).sort()).toEqual([...MEMBER_FIELDS].sort());
    expect(JSON.stringify(me)).not.toMatch(/reset-secret|confirm-secret/);
    expect(me).toMatchObject({
      id: alice.user.id,
      username: 'alice',
      email: 'alice@example.com',
      provider: 'local',
      confirmed: true,
      blocked: false,
      diet_preference: 'Carnivore',
      goal_reminder: 'daily',
      goal_weight: 80.5,
      stripeCustomerId: null,
      personal_goal_note: null,
      profile_picture: null,
      pending_email: null,
      pending_email_expires_at: null,
      bmi: { currentWeight: 90, height: 180, idealBmiWeight: '72.9', Gender: 'Male', date_of_birth: '1990-05-01' },
    });
    expect((me.bmi as Record<string, unknown>).id).toEqual(expect.any(Number));
    expect((me.ingredients as Ingredient[]).map((i) => [i.id, i.ingredient_name, i.slug])).toEqual([
      [1, 'Eggs', 'eggs'],
      [3, 'Cheese', 'cheese'],
    ]);
  });
});

describe('role permissions', () => {
  it('grants the public and authenticated roles exactly their lists', async () => {
    for (const [type, wanted] of Object.entries(rolePermissions(apiRouters(app.strapi)))) {
      const role = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type }, populate: ['permissions'] });
      const actions = (role.permissions as { action: string }[]).map((p) => p.action).sort();
      expect(actions).toEqual([...wanted].sort());
    }
  });

  it('lets nobody list users; public cannot read /users/me', async () => {
    expect((await request(app.baseUrl, 'GET', '/api/users')).status).toBe(403);
    expect((await request(app.baseUrl, 'GET', `/api/users/${alice.user.id}`)).status).toBe(403);
    expect((await request(app.baseUrl, 'GET', '/api/users/me')).status).toBe(401);
    expect((await request(app.baseUrl, 'GET', '/api/users', { token: alice.jwt })).status).toBe(403);
    expect((await request(app.baseUrl, 'GET', `/api/users/${alice.user.id}`, { token: alice.jwt })).status).toBe(403);
    expect((await request(app.baseUrl, 'GET', '/api/users/me', { token: alice.jwt })).status).toBe(200);
  });

  it('revokes permissions granted outside the list on the next sync', async () => {
    const publicRole = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
    await app.strapi.db
      .query('plugin::users-permissions.permission')
      .create({ data: { action: 'plugin::users-permissions.user.find', role: publicRole.id } });
    expect((await request(app.baseUrl, 'GET', '/api/users')).status).toBe(200);

    await syncRolePermissions(app.strapi);
    expect((await request(app.baseUrl, 'GET', '/api/users')).status).toBe(403);
  });
});

describe('ingredients', () => {
  it('lists the six seeded ingredients with ids 1..6 in order, publicly', async () => {
    const res = await request<ListResponse<Ingredient>>(app.baseUrl, 'GET', '/api/ingredients?sort=id');
    expect(res.status).toBe(200);
    expect(res.body.data.map((i) => [i.id, i.ingredient_name, i.slug])).toEqual([
      [1, 'Eggs', 'eggs'],
      [2, 'Honey', 'honey'],
      [3, 'Cheese', 'cheese'],
      [4, 'Yogurt', 'yogurt'],
      [5, 'Butter', 'butter'],
      [6, 'Milk', 'milk'],
    ]);

    const one = await request<{ data: Ingredient }>(app.baseUrl, 'GET', `/api/ingredients/${res.body.data[1].documentId}`);
    expect(one.status).toBe(200);
    expect(one.body.data.ingredient_name).toBe('Honey');
  });

  it('is read-only over the API', async () => {
    const created = await request(app.baseUrl, 'POST', '/api/ingredients', {
      body: { data: { ingredient_name: 'Bread' } },
      token: alice.jwt,
    });
    expect(created.status).toBeGreaterThanOrEqual(400);
    expect(await app.strapi.db.query('api::ingredient.ingredient').count()).toBe(6);
  });
});

describe('auth rate limit', () => {
  it('answers 429 after repeated failed logins, even for the right password', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11 && !statuses.includes(429); i += 1) {
      statuses.push((await login('alice', `wrong-${i}`)).status);
    }
    expect(statuses).toContain(429);
    expect(statuses.slice(0, -1).every((s) => s === 400)).toBe(true);

    const blocked = await login('alice', password);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.name).toBe('RateLimitError');
  });
});

describe('restart on the same database', () => {
  it('re-runs the bootstrap without duplicating ingredients or losing users', async () => {
    const databaseFile = app.databaseFile!;
    await app.stop({ keepDatabase: true });
    app = await boot({ databaseFile });

    const res = await request<ListResponse<Ingredient>>(app.baseUrl, 'GET', '/api/ingredients?sort=id');
    expect(res.body.data.map((i) => i.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await app.strapi.db.query('api::ingredient.ingredient').count()).toBe(6);
    expect(await app.strapi.db.query('plugin::users-permissions.user').count({ where: { username: 'alice' } })).toBe(1);
  });

  it('a second Strapi in one process extends the cached plugins once: a sign-up and a log-in record one session each', async () => {
    const res = await requestFrom<AuthResponse & ApiError>('127.0.32.2', app.baseUrl, 'POST', '/api/auth/local/register', {
      body: { username: 'restarted', email: 'restarted@example.com', password },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const logIn = await requestFrom<AuthResponse & ApiError>('127.0.32.3', app.baseUrl, 'POST', '/api/auth/local', {
      body: { identifier: 'restarted', password },
    });
    expect(logIn.status, JSON.stringify(logIn.body)).toBe(200);
    const rows = (await app.strapi.db.query('api::member-session.member-session').findMany({ where: { member_id: res.body.user.id } })) as {
      sid: string;
    }[];
    const sid = (jwt: string) => (JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')) as { sid: string }).sid;
    expect(rows.map((row) => row.sid).sort()).toEqual([sid(res.body.jwt), sid(logIn.body.jwt)].sort());
  });
});
