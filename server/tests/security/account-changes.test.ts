import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { boot, type TestApp } from '../helpers/app';
import { request } from '../helpers/strapi';
import { RESET_SUBJECT, emailChangeTokenOf, resetCodeOf } from '../helpers/outbox';
import type { ApiError, AuthResponse } from '../helpers/types';

/**
 * A credential change closes what it should (src/security/sessions.ts): a new e-mail address or
 * password kills a reset code mailed before it, and a confirmed new e-mail address ends the member's
 * sessions (asking for it ends none; the link may be opened on any device).
 */

const INVALID_CODE = 'This reset code is invalid or has expired. Please request a new one.';
const USERS = 'plugin::users-permissions.user';

let app: TestApp;
let outbox: TestApp['outbox'];
let counter = 0;

type Answer = Partial<AuthResponse> & Partial<ApiError> & { ok?: boolean; id?: number; email?: string; jwt?: string };
const call = (method: string, urlPath: string, options: { body?: unknown; token?: string } = {}) =>
  request<Answer>(app.baseUrl, method, urlPath, options);
const login = (identifier: string, password: string) => call('POST', '/api/auth/local', { body: { identifier, password } });

function member() {
  counter += 1;
  return app.register(`changer${counter}`);
}

async function mailedCode(email: string): Promise<string> {
  expect((await call('POST', '/api/auth/forgot-password', { body: { email } })).status).toBe(200);
  return resetCodeOf(await outbox.next(email, undefined, RESET_SUBJECT));
}

/** Asks for `newEmail` from the profile and opens the link mailed to it; answers the confirmation. */
async function changeEmail(who: { id: number; jwt: string; password: string }, newEmail: string) {
  const asked = await call('PUT', `/api/users/${who.id}`, { token: who.jwt, body: { email: newEmail, currentPassword: who.password } });
  expect(asked.status).toBe(200);
  const token = emailChangeTokenOf(await outbox.next(newEmail), 'confirm');
  return call('POST', '/api/auth/email-change/confirm', { body: { token } });
}

const useCode = (code: string) =>
  call('POST', '/api/auth/reset-password', { body: { code, password: 'Taken-Over-9', passwordConfirmation: 'Taken-Over-9' } });

beforeAll(async () => {
  app = await boot({ outbox: true, limits: 'raised' });
  outbox = app.outbox;
});

afterAll(async () => {
  await app?.stop();
});

describe('a reset code mailed before a credential change', () => {
  it('stops working once the e-mail address changes; the password stays', async () => {
    const alice = await member();
    const code = await mailedCode(alice.email);
    const newEmail = `moved${counter}@example.com`;
    expect((await changeEmail(alice, newEmail)).status).toBe(200);

    const used = await useCode(code);
    expect(used.status).toBe(400);
    expect(used.body.error?.message).toBe(INVALID_CODE);
    expect((await login(newEmail, alice.password)).status).toBe(200);
    expect((await login(newEmail, 'Taken-Over-9')).status).toBe(400);
  });

  it('stops working once the password changes (change-password, or the admin panel through the user service)', async () => {
    const bob = await member();
    const code = await mailedCode(bob.email);
    const changed = await call('POST', '/api/auth/change-password', {
      token: bob.jwt,
      body: { currentPassword: bob.password, password: 'Bobs-New-Pass-2', passwordConfirmation: 'Bobs-New-Pass-2' },
    });
    expect(changed.status).toBe(200);
    const used = await useCode(code);
    expect(used.body.error?.message).toBe(INVALID_CODE);
    expect((await login(bob.email, 'Bobs-New-Pass-2')).status).toBe(200);
    expect((await login(bob.email, 'Taken-Over-9')).status).toBe(400);

    const secondCode = await mailedCode(bob.email);
    await app.strapi.plugin('users-permissions').service('user').edit(bob.id, { password: 'Admin-Set-Pass-3' });
    expect((await useCode(secondCode)).body.error?.message).toBe(INVALID_CODE);
    expect((await login(bob.email, 'Admin-Set-Pass-3')).status).toBe(200);
  });

  it('a profile save that keeps the address keeps the code and the sessions', async () => {
    const carol = await member();
    const code = await mailedCode(carol.email);
    const saved = await call('PUT', `/api/users/${carol.id}`, {
      token: carol.jwt,
      body: { email: carol.email.toUpperCase(), diet_preference: 'Ketovore' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.jwt).toBeUndefined();
    expect((await call('GET', '/api/users/me', { token: carol.jwt })).status).toBe(200);
    expect((await useCode(code)).status).toBe(200);
    expect((await login(carol.email, 'Taken-Over-9')).status).toBe(200);
  });
});

describe('an e-mail change', () => {
  it('asked for, ends no session; confirmed, ends every session, the asking device too (the link is no log-in)', async () => {
    const dave = await member();
    const otherDevice = await login(dave.email, dave.password);
    expect(otherDevice.status).toBe(200);
    const newEmail = `dave-moved${counter}@example.com`;

    const asked = await call('PUT', `/api/users/${dave.id}`, {
      token: dave.jwt,
      body: { email: newEmail, currentPassword: dave.password },
    });
    expect(asked.status).toBe(200);
    expect(asked.body.email).toBe(dave.email);
    expect(asked.body.jwt).toBeUndefined();
    expect((await call('GET', '/api/users/me', { token: otherDevice.body.jwt })).status).toBe(200);
    expect((await call('GET', '/api/users/me', { token: dave.jwt })).status).toBe(200);

    const token = emailChangeTokenOf(await outbox.next(newEmail), 'confirm');
    const confirmed = await call('POST', '/api/auth/email-change/confirm', { body: { token } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.jwt).toBeUndefined();
    expect((await call('GET', '/api/users/me', { token: otherDevice.body.jwt })).status).toBe(401);
    expect((await call('GET', '/api/users/me', { token: dave.jwt })).status).toBe(401);
    const relogged = await login(newEmail, dave.password);
    expect(relogged.status).toBe(200);
    const me = await call('GET', '/api/users/me', { token: relogged.body.jwt });
    expect(me.body.email).toBe(newEmail);
    const stored = (await app.strapi.db.query(USERS).findOne({ where: { id: dave.id } })) as { email: string };
    expect(stored.email).toBe(newEmail);
  });

  it('refused (wrong current password) changes nothing and ends no session', async () => {
    const erin = await member();
    const refused = await call('PUT', `/api/users/${erin.id}`, {
      token: erin.jwt,
      body: { email: 'erin-new@example.com', currentPassword: 'wrong-one' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.jwt).toBeUndefined();
    const me = await call('GET', '/api/users/me', { token: erin.jwt });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(erin.email);
  });
});
