import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { boot, type TestApp } from '../../helpers/app';
import type { Member } from '../../helpers/members';
import { RESET_SUBJECT, resetCodeOf } from '../../helpers/outbox';
import type { ApiError } from '../../helpers/types';

const INVALID_CODE = 'This reset code is invalid or has expired. Please request a new one.';
const PUBLIC_URL = 'http://carnivo.test';
const USERS = 'plugin::users-permissions.user';

let app: TestApp;
let outbox: TestApp['outbox'];
let alice: Member;
let alicePassword = 'original-pass-1';

type Answer = { ok?: boolean } & Partial<ApiError>;
const forgot = (body: unknown) => app.call<Answer>('POST', '/api/auth/forgot-password', { body });
const reset = (body: unknown) => app.call<Answer>('POST', '/api/auth/reset-password', { body });
const login = (identifier: string, password: string) => app.login(identifier, password);
const register = (username: string, password: string) => app.register(username, { password });
const storedUser = (id: number) => app.strapi.db.query(USERS).findOne({ where: { id } });

/** Requests a code for the address and reads it from the outbox. */
async function requestCode(email: string): Promise<string> {
  const res = await forgot({ email });
  expect(res.status).toBe(200);
  // The reset code, not the notice of an earlier reset.
  return resetCodeOf(await outbox.next(email, undefined, RESET_SUBJECT));
}

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

beforeAll(async () => {
  // Many calls to the rate-limited auth routes; the limit itself is tested at the end.
  app = await boot({ outbox: true, limits: 'raised', env: { PUBLIC_URL } });
  outbox = app.outbox;
  alice = await register('alice', alicePassword);
});

afterAll(async () => {
  await app?.stop();
});

describe('POST /api/auth/forgot-password', () => {
  it('answers the same for a known, an unknown and a blocked address; mails only the known one', async () => {
    const blocked = await register('blocky', 'blocked-pass-1');
    await app.strapi.db.query(USERS).update({ where: { id: blocked.id }, data: { blocked: true } });

    const known = await forgot({ email: 'alice@example.com' });
    const unknown = await forgot({ email: 'nobody@example.com' });
    const blockedAnswer = await forgot({ email: 'blocky@example.com' });
    for (const res of [known, unknown, blockedAnswer]) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(res.headers.get('content-type')).toBe(known.headers.get('content-type'));
      expect(res.headers.get('content-length')).toBe(known.headers.get('content-length'));
    }

    await outbox.next('alice@example.com');
    // The known address's mail is written; give the others the same time, then none may exist.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(outbox.take('nobody@example.com')).toEqual([]);
    expect(outbox.take('blocky@example.com')).toEqual([]);
    expect((await storedUser(blocked.id)).resetPasswordToken).toBeNull();
  });

  it('matches the address case-insensitively', async () => {
    const res = await forgot({ email: '  Alice@Example.COM ' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    await outbox.next('alice@example.com');
  });

  it('refuses a missing or malformed address with a validation error', async () => {
    for (const body of [{}, { email: '' }, { email: 'not-an-email' }, { email: 'a@b' }, { email: 42 }]) {
      const res = await forgot(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({
        data: null,
        error: expect.objectContaining({ status: 400, name: 'ValidationError', message: 'Please enter a valid email address.' }),
      });
    }
  });

  it('mails a 10-character code and a link to the reset page holding it; stores only its hash, for 1 hour', async () => {
    const before = Date.now();
    expect((await forgot({ email: 'alice@example.com' })).status).toBe(200);
    const email = await outbox.next('alice@example.com');

    expect(email.headers.from).toBe('Carnivo <no-reply@carnivo.app>');
    expect(email.headers.to).toBe('alice@example.com');
    expect(email.headers.subject).toBe('Your Carnivo password reset code');
    const code = resetCodeOf(email);
    expect(code).toMatch(/^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{10}$/);
    const link = `${PUBLIC_URL}/reset-password?code=${code}`;
    expect(email.text).toContain(link);
    expect(email.html).toContain(code);
    expect(email.html).toContain(`href="${link}"`);

    const stored = await storedUser(alice.id);
    expect(stored.resetPasswordToken).toBe(sha256(code));
    expect(JSON.stringify(stored)).not.toContain(code);
    const expiresAt = new Date(stored.resetPasswordTokenExpiresAt).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 60 * 60 * 1000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 60 * 60 * 1000);
  });

  it('gives different codes each time', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 3; i += 1) codes.add(await requestCode('alice@example.com'));
    expect(codes.size).toBe(3);
  });

  it('answers without waiting for the mail server, so a known address is not slower than an unknown one', async () => {
    const emailPlugin = app.strapi.plugin('email') as unknown as { provider: { send(options: unknown): Promise<unknown> } };
    const originalSend = emailPlugin.provider.send;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held: unknown[] = [];
    // A mail server that does not answer until released: the request must not wait for it.
    emailPlugin.provider.send = async (options) => {
      held.push(options);
      await gate;
      return originalSend.call(emailPlugin.provider, options);
    };
    try {
      const known = await forgot({ email: 'alice@example.com' });
      const unknown = await forgot({ email: 'ghost@example.com' });
      expect([known.status, known.body, unknown.status, unknown.body]).toEqual([200, { ok: true }, 200, { ok: true }]);
      const deadline = Date.now() + 5_000;
      while (held.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(held).toEqual([expect.objectContaining({ to: 'alice@example.com', subject: 'Your Carnivo password reset code' })]);
    } finally {
      release();
      emailPlugin.provider.send = originalSend;
    }
    await outbox.next('alice@example.com');
  });
});

describe('POST /api/auth/reset-password', () => {
  const expectError = (res: Awaited<ReturnType<typeof reset>>, message: string) => {
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ data: null, error: expect.objectContaining({ status: 400, name: 'ValidationError', message }) });
  };

  it('checks the code and both password fields first', async () => {
    expectError(await reset({ password: 'new-pass-1', passwordConfirmation: 'new-pass-1' }), 'Please enter the reset code.');
    expectError(await reset({ code: '   ', password: 'new-pass-1', passwordConfirmation: 'new-pass-1' }), 'Please enter the reset code.');
    expectError(await reset({ code: 'ABCDEFGHJK', password: 'new-pass-1' }), 'Please fill in both password fields.');
    expectError(await reset({ code: 'ABCDEFGHJK', password: '', passwordConfirmation: 'x' }), 'Please fill in both password fields.');
    expectError(await reset({ code: 'ABCDEFGHJK', password: 'new-pass-1', passwordConfirmation: 'new-pass-2' }), 'Passwords do not match.');
    expectError(
      await reset({ code: 'ABCDEFGHJK', password: 'short', passwordConfirmation: 'short' }),
      'Password should be at least 6 characters.',
    );
    const long = 'x'.repeat(73);
    expectError(await reset({ code: 'ABCDEFGHJK', password: long, passwordConfirmation: long }), 'Password must be less than 73 bytes');
  });

  it('refuses mismatched passwords even with a valid code, and the code stays usable', async () => {
    const code = await requestCode('alice@example.com');
    expectError(await reset({ code, password: 'new-pass-1', passwordConfirmation: 'new-pass-9' }), 'Passwords do not match.');
    expect((await storedUser(alice.id)).resetPasswordToken).toBe(sha256(code));
  });

  it('refuses a wrong code and leaves the password alone', async () => {
    const code = await requestCode('alice@example.com');
    const wrong = code.startsWith('A') ? `B${code.slice(1)}` : `A${code.slice(1)}`;
    for (const attempt of [wrong, 'ABCDEFGHJK', `${code}X`, code.slice(0, 9), sha256(code)]) {
      expectError(await reset({ code: attempt, password: 'hacked-pass-1', passwordConfirmation: 'hacked-pass-1' }), INVALID_CODE);
    }
    expect((await login('alice', alicePassword)).status).toBe(200);
  });

  it('resets the password with the code (any case, surrounding blanks), once', async () => {
    const code = await requestCode('alice@example.com');
    const newPassword = 'brand-new-pass-2';
    const res = await reset({ code: `  ${code.toLowerCase()} `, password: newPassword, passwordConfirmation: newPassword });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });

    const oldLogin = await login('alice', alicePassword);
    expect(oldLogin.status).toBe(400);
    expect(oldLogin.body.error.message).toBe('Invalid identifier or password');
    const newLogin = await login('alice@example.com', newPassword);
    expect(newLogin.status).toBe(200);
    expect(newLogin.body.user.id).toBe(alice.id);

    const stored = await storedUser(alice.id);
    expect(stored.resetPasswordToken).toBeNull();
    expect(stored.resetPasswordTokenExpiresAt).toBeNull();
    expect(stored.password).toMatch(/^\$2[aby]\$/);

    // Used: refused, and the password stays the new one.
    expectError(await reset({ code, password: 'again-pass-3', passwordConfirmation: 'again-pass-3' }), INVALID_CODE);
    expect((await login('alice', newPassword)).status).toBe(200);
    alicePassword = newPassword;
  });

  it('a new request replaces the earlier code', async () => {
    const first = await requestCode('alice@example.com');
    const second = await requestCode('alice@example.com');
    expect(second).not.toBe(first);
    expectError(await reset({ code: first, password: 'first-code-pass', passwordConfirmation: 'first-code-pass' }), INVALID_CODE);
    expect((await reset({ code: second, password: 'second-code-pass', passwordConfirmation: 'second-code-pass' })).status).toBe(200);
    expect((await login('alice', 'second-code-pass')).status).toBe(200);
    alicePassword = 'second-code-pass';
  });

  it('refuses an expired code', async () => {
    const code = await requestCode('alice@example.com');
    await app.strapi.db
      .query(USERS)
      .update({ where: { id: alice.id }, data: { resetPasswordTokenExpiresAt: new Date(Date.now() - 1000) } });
    expectError(await reset({ code, password: 'expired-pass-1', passwordConfirmation: 'expired-pass-1' }), INVALID_CODE);
    expect((await login('alice', alicePassword)).status).toBe(200);
    expect((await login('alice', 'expired-pass-1')).status).toBe(400);
  });

  it('refuses a code of a user who has been blocked since', async () => {
    const bob = await register('bobby', 'bobby-pass-1');
    const code = await requestCode('bobby@example.com');
    await app.strapi.db.query(USERS).update({ where: { id: bob.id }, data: { blocked: true } });
    expectError(await reset({ code, password: 'bobby-pass-2', passwordConfirmation: 'bobby-pass-2' }), INVALID_CODE);
  });

  it('does not hand out a session or user data', async () => {
    const code = await requestCode('alice@example.com');
    const res = await reset({ code, password: 'final-pass-1', passwordConfirmation: 'final-pass-1' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    alicePassword = 'final-pass-1';
  });
});

describe('rate limits (Strapi users-permissions rateLimit middleware kept on both routes)', () => {
  it('limits forgot-password per address and reset-password per client', async () => {
    app.strapi.config.set('security.authRateLimit', { enabled: true, intervalMs: 60_000, max: 3 });

    const forgotStatuses: number[] = [];
    for (let i = 0; i < 4; i += 1) forgotStatuses.push((await forgot({ email: 'flood@example.com' })).status);
    expect(forgotStatuses).toEqual([200, 200, 200, 429]);
    const limited = await forgot({ email: 'flood@example.com' });
    expect(limited.body.error?.name).toBe('RateLimitError');

    const resetStatuses: number[] = [];
    for (let i = 0; i < 4 && !resetStatuses.includes(429); i += 1) {
      resetStatuses.push((await reset({ code: `WRONGCODE${i}`, password: 'x-pass-12', passwordConfirmation: 'x-pass-12' })).status);
    }
    expect(resetStatuses).toContain(429);
    // Once limited, every attempt from this client is refused until the window passes.
    const blocked = await reset({ code: 'ABCDEFGHJK', password: 'x-pass-12', passwordConfirmation: 'x-pass-12' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error?.name).toBe('RateLimitError');
  });
});
