import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { boot, type TestApp } from '../../helpers/app';
import { request } from '../../helpers/strapi';
import type { ApiError, AuthResponse } from '../../helpers/types';

const PUBLIC_URL = 'http://carnivo.test';

let app: TestApp;
let outbox: TestApp['outbox'];

const login = (identifier: string, password: string) =>
  request<AuthResponse & ApiError>(app.baseUrl, 'POST', '/api/auth/local', { body: { identifier, password } });

beforeAll(async () => {
  app = await boot({ outbox: true, env: { PUBLIC_URL, EMAIL_CONFIRMATION: 'true' } });
  outbox = app.outbox;
});

afterAll(async () => {
  await app?.stop();
});

describe('email confirmation (EMAIL_CONFIRMATION=true)', () => {
  const password = 'confirm-me-1';
  let confirmationUrl: URL;

  it('registers without a session and mails the confirmation link through the outbox', async () => {
    const res = await request<Partial<AuthResponse>>(app.baseUrl, 'POST', '/api/auth/local/register', {
      body: { username: 'carol', email: 'carol@example.com', password },
    });
    expect(res.status).toBe(200);
    expect(res.body.jwt).toBeUndefined();
    expect(res.body.user).toMatchObject({ username: 'carol', confirmed: false });

    const email = await outbox.next('carol@example.com');
    expect(email.headers.from).toBe('Carnivo <no-reply@carnivo.app>');
    const link = /(https?:\/\/[^\s<"]+\/api\/auth\/email-confirmation\?confirmation=[0-9a-f]+)/.exec(email.raw);
    expect(link, email.raw).not.toBeNull();
    confirmationUrl = new URL(link![1]);
    expect(confirmationUrl.origin).toBe(PUBLIC_URL);
  });

  it('refuses to log in before confirmation', async () => {
    const res = await login('carol', password);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Your account email is not confirmed');
  });

  it('redirects the confirmation link to the /email-confirmation page of the site', async () => {
    const res = await fetch(`${app.baseUrl}${confirmationUrl.pathname}${confirmationUrl.search}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${PUBLIC_URL}/email-confirmation`);
  });

  it('logs in once confirmed; the link does not work twice', async () => {
    const res = await login('carol@example.com', password);
    expect(res.status).toBe(200);
    expect(res.body.jwt).toEqual(expect.any(String));

    const again = await fetch(`${app.baseUrl}${confirmationUrl.pathname}${confirmationUrl.search}`, { redirect: 'manual' });
    expect(again.status).toBe(400);
  });
});
