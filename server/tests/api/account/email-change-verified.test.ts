import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { boot, type TestApp } from '../../helpers/app';
import { request } from '../../helpers/strapi';
import { emailChangeTokenOf, resetCodeOf } from '../../helpers/outbox';
import type { ApiError, AuthResponse } from '../../helpers/types';
import { emailChangeMessages } from '../../../src/contract/emailChange';

/**
 * Verified e-mail change (docs/security.md#verified-e-mail-change), attacked: the address changes only
 * through the link mailed to it, once, within 24 hours, while the address is free; every refusal is
 * proven by re-reading the victim's row.
 */

const USERS = 'plugin::users-permissions.user';

let app: TestApp;
let outbox: TestApp['outbox'];
let counter = 0;

type Answer = Partial<AuthResponse> &
  Partial<ApiError> & {
    ok?: boolean;
    email?: string;
    pending_email?: string | null;
    emailChange?: { pendingEmail: string; expiresAt: string };
  };
const call = (method: string, urlPath: string, options: { body?: unknown; token?: string } = {}) =>
  request<Answer>(app.baseUrl, method, urlPath, options);
const login = (identifier: string, password: string) => call('POST', '/api/auth/local', { body: { identifier, password } });
const confirm = (token: string) => call('POST', '/api/auth/email-change/confirm', { body: { token } });
const cancel = (token: string) => call('POST', '/api/auth/email-change/cancel', { body: { token } });

interface StoredRow {
  email: string;
  pending_email: string | null;
  email_change_token: string | null;
  email_change_cancel_token: string | null;
}
const stored = async (id: number) =>
  (await app.strapi.db.query(USERS).findOne({
    where: { id },
    select: ['email', 'pending_email', 'email_change_token', 'email_change_cancel_token'],
  })) as StoredRow;

function member() {
  counter += 1;
  return app.register(`mover${counter}`);
}

/** Asks for `newEmail` and returns the two links' tokens read from the outbox. */
async function requestChange(who: Awaited<ReturnType<typeof member>>, newEmail: string) {
  const res = await call('PUT', `/api/users/${who.id}`, { token: who.jwt, body: { email: newEmail, currentPassword: who.password } });
  expect(res.status).toBe(200);
  return {
    res,
    confirmToken: emailChangeTokenOf(await outbox.next(newEmail), 'confirm'),
    cancelToken: emailChangeTokenOf(await outbox.next(who.email), 'cancel'),
  };
}

beforeAll(async () => {
  app = await boot({ outbox: true, limits: 'raised' });
  outbox = app.outbox;
});

afterAll(async () => {
  await app?.stop();
});

describe('asking for a new address', () => {
  it('changes nothing yet: the old address logs in and gets reset codes; only hashes are stored', async () => {
    const alice = await member();
    const newEmail = `alice-new${counter}@example.com`;
    const { res, confirmToken, cancelToken } = await requestChange(alice, newEmail);
    expect(res.body.email).toBe(alice.email);
    expect(res.body.pending_email).toBe(newEmail);
    expect(res.body.emailChange?.pendingEmail).toBe(newEmail);
    expect(Date.parse(res.body.emailChange!.expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(res.body.jwt).toBeUndefined();

    const row = await stored(alice.id);
    expect(row.email).toBe(alice.email);
    expect(row.email_change_token).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(confirmToken.split('.')[1]);
    expect(JSON.stringify(row)).not.toContain(cancelToken.split('.')[1]);
    expect((await call('GET', '/api/users/me', { token: alice.jwt })).status).toBe(200);
    expect((await login(alice.email, alice.password)).status).toBe(200);
    expect((await login(newEmail, alice.password)).status).toBe(400);
    expect((await call('POST', '/api/auth/forgot-password', { body: { email: alice.email } })).status).toBe(200);
    expect(resetCodeOf(await outbox.next(alice.email))).toMatch(/^[A-Z0-9]{10}$/);
  });

  it('the other fields save at once; a taken address or a wrong password is refused with nothing written or mailed', async () => {
    const bob = await member();
    const other = await member();
    const mails = outbox.count();
    const taken = await call('PUT', `/api/users/${bob.id}`, {
      token: bob.jwt,
      body: { email: other.email.toUpperCase(), currentPassword: bob.password, diet_preference: 'Ketovore' },
    });
    expect(taken.status).toBe(400);
    expect(taken.body.error?.message).toBe('Email is already taken');
    const wrong = await call('PUT', `/api/users/${bob.id}`, {
      token: bob.jwt,
      body: { email: 'bob-x@example.com', currentPassword: 'nope-nope' },
    });
    expect(wrong.status).toBe(400);
    expect(await stored(bob.id)).toMatchObject({ email: bob.email, pending_email: null, email_change_token: null });
    expect(outbox.count()).toBe(mails);

    const both = await call('PUT', `/api/users/${bob.id}`, {
      token: bob.jwt,
      body: { email: `bob-new${counter}@example.com`, currentPassword: bob.password, diet_preference: 'Ketovore' },
    });
    expect(both.status).toBe(200);
    const row = (await app.strapi.db.query(USERS).findOne({ where: { id: bob.id } })) as StoredRow & { diet_preference: string };
    expect(row).toMatchObject({ email: bob.email, pending_email: `bob-new${counter}@example.com`, diet_preference: 'Ketovore' });
  });

  it('a new request replaces the earlier one: its links stop working', async () => {
    const carol = await member();
    const first = await requestChange(carol, `carol-a${counter}@example.com`);
    const second = await requestChange(carol, `carol-b${counter}@example.com`);
    expect((await confirm(first.confirmToken)).body.error?.message).toBe(emailChangeMessages.invalidConfirmLink);
    expect((await cancel(first.cancelToken)).body.error?.message).toBe(emailChangeMessages.invalidCancelLink);
    expect((await stored(carol.id)).email).toBe(carol.email);
    const done = await confirm(second.confirmToken);
    expect(done.status).toBe(200);
    expect(done.body.email).toBe(`carol-b${counter}@example.com`);
  });
});

describe('an address from before the mail rule', () => {
  it('a member whose stored address the rule now refuses can change away from it: the link reaches the new address', async () => {
    const kay = await member();
    // Written straight into the row, as an older release let it in: the mail queue refuses to send to it.
    const legacy = `kay${counter}..old@example.com`;
    await app.strapi.db.query(USERS).update({ where: { id: kay.id }, data: { email: legacy } });
    const signedIn = await login(`mover${counter}`, kay.password);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const jwt = signedIn.body.jwt!;

    // The new address is still held to the rule: refused, nothing written.
    const bad = await call('PUT', `/api/users/${kay.id}`, {
      token: jwt,
      body: { email: 'a..b@example.com', currentPassword: kay.password },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toBe('Invalid email format');
    expect(await stored(kay.id)).toMatchObject({ email: legacy, pending_email: null });

    const newEmail = `kay-new${counter}@example.com`;
    const res = await call('PUT', `/api/users/${kay.id}`, { token: jwt, body: { email: newEmail, currentPassword: kay.password } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await stored(kay.id)).toMatchObject({ email: legacy, pending_email: newEmail });
    // The notice to the old address could not be queued (logged); the change goes on through the new one.
    expect(await app.strapi.db.query('api::email-message.email-message').count({ where: { to: legacy } })).toBe(0);
    const done = await confirm(emailChangeTokenOf(await outbox.next(newEmail), 'confirm'));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((await stored(kay.id)).email).toBe(newEmail);
    expect((await login(newEmail, kay.password)).status).toBe(200);
  });
});

describe('confirming', () => {
  it('changes the address, ends every session and voids a mailed reset code; the old address no longer logs in', async () => {
    const dave = await member();
    const code = resetCodeOf(
      await (async () => {
        await call('POST', '/api/auth/forgot-password', { body: { email: dave.email } });
        return outbox.next(dave.email);
      })(),
    );
    const newEmail = `dave-new${counter}@example.com`;
    const { confirmToken } = await requestChange(dave, newEmail);
    const done = await confirm(confirmToken);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ email: newEmail });
    expect(await stored(dave.id)).toMatchObject({
      email: newEmail,
      pending_email: null,
      email_change_token: null,
      email_change_cancel_token: null,
    });
    expect((await call('GET', '/api/users/me', { token: dave.jwt })).status).toBe(401);
    expect((await login(dave.email, dave.password)).status).toBe(400);
    expect((await login(newEmail, dave.password)).status).toBe(200);
    const reset = await call('POST', '/api/auth/reset-password', {
      body: { code, password: 'Taken-Over-9', passwordConfirmation: 'Taken-Over-9' },
    });
    expect(reset.status).toBe(400);
  });

  it('a replayed link is refused and changes nothing more', async () => {
    const erin = await member();
    const { confirmToken } = await requestChange(erin, `erin-a${counter}@example.com`);
    expect((await confirm(confirmToken)).status).toBe(200);
    const replay = await confirm(confirmToken);
    expect(replay.status).toBe(400);
    expect(replay.body.error?.message).toBe(emailChangeMessages.invalidConfirmLink);
    expect((await stored(erin.id)).email).toBe(`erin-a${counter}@example.com`);
  });

  it('a password change voids a pending change: someone who knew the old password cannot complete it', async () => {
    const gail = await member();
    const attacker = `gail-thief${counter}@example.com`;
    const { confirmToken } = await requestChange(gail, attacker);
    // The owner reads the notice and changes the password instead of cancelling.
    const newPassword = `${gail.password}-new`;
    const changed = await call('POST', '/api/auth/change-password', {
      token: gail.jwt,
      body: { currentPassword: gail.password, password: newPassword, passwordConfirmation: newPassword },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await stored(gail.id)).toEqual({
      email: gail.email,
      pending_email: null,
      email_change_token: null,
      email_change_cancel_token: null,
    });
    const late = await confirm(confirmToken);
    expect(late.status).toBe(400);
    expect((await stored(gail.id)).email).toBe(gail.email);
    expect((await login(gail.email, newPassword)).status).toBe(200);
  });

  it("another member's token, or a victim's id with the attacker's secret, changes nobody", async () => {
    const victim = await member();
    const attacker = await member();
    const victimChange = await requestChange(victim, `victim-new${counter}@example.com`);
    const attackerChange = await requestChange(attacker, `attacker-new${counter}@example.com`);
    const attackerSecret = attackerChange.confirmToken.split('.')[1];
    for (const forged of [
      `${victim.id}.${attackerSecret}`,
      `${victim.id}.${victimChange.cancelToken.split('.')[1]}`,
      `${victim.id}.${'A'.repeat(43)}`,
    ]) {
      const res = await confirm(forged);
      expect(res.status).toBe(400);
      expect(res.body.error?.message).toBe(emailChangeMessages.invalidConfirmLink);
    }
    // The cancel link of the old address is not a confirmation link, nor the reverse.
    expect((await cancel(victimChange.confirmToken)).status).toBe(400);
    for (const junk of ['', 'x', `${victim.id}`, { $ne: null }, [victimChange.confirmToken]]) {
      expect((await call('POST', '/api/auth/email-change/confirm', { body: { token: junk } })).status).toBe(400);
    }
    expect(await stored(victim.id)).toMatchObject({ email: victim.email, pending_email: `victim-new${counter}@example.com` });
    // The attacker's own link changes only the attacker.
    expect((await confirm(attackerChange.confirmToken)).status).toBe(200);
    expect((await stored(victim.id)).email).toBe(victim.email);
    expect((await stored(attacker.id)).email).toBe(`attacker-new${counter}@example.com`);
  });

  it('an expired link (older than 24 hours) is refused', async () => {
    const fay = await member();
    const { confirmToken } = await requestChange(fay, `fay-new${counter}@example.com`);
    await app.strapi.db.query(USERS).update({ where: { id: fay.id }, data: { pending_email_expires_at: new Date(Date.now() - 1000) } });
    const res = await confirm(confirmToken);
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe(emailChangeMessages.invalidConfirmLink);
    expect((await stored(fay.id)).email).toBe(fay.email);
    expect((await login(fay.email, fay.password)).status).toBe(200);
  });

  it('is refused when another account took the address meanwhile; nothing changes', async () => {
    const gus = await member();
    const newEmail = `gus-new${counter}@example.com`;
    const { confirmToken } = await requestChange(gus, newEmail);
    await app.register(`squat${counter}`, { email: newEmail });
    const res = await confirm(confirmToken);
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe(emailChangeMessages.taken);
    expect(await stored(gus.id)).toMatchObject({ email: gus.email, pending_email: newEmail });
    expect((await call('GET', '/api/users/me', { token: gus.jwt })).status).toBe(200);
  });
});

describe('cancelling', () => {
  it('voids the pending change: its confirmation link then changes nothing', async () => {
    const hal = await member();
    const { confirmToken, cancelToken } = await requestChange(hal, `hal-new${counter}@example.com`);
    const res = await cancel(cancelToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(await stored(hal.id)).toMatchObject({ email: hal.email, pending_email: null, email_change_token: null });
    const late = await confirm(confirmToken);
    expect(late.status).toBe(400);
    expect(late.body.error?.message).toBe(emailChangeMessages.invalidConfirmLink);
    expect((await stored(hal.id)).email).toBe(hal.email);
    expect((await cancel(cancelToken)).status).toBe(400);
  });
});

describe('the links are rate limited like the other auth routes', () => {
  it('answers 429 with Retry-After past AUTH_RATELIMIT_MAX per route and address', async () => {
    app.strapi.config.set('security.authRateLimit.max', 3);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await cancel(`9.${'B'.repeat(43)}`)).status);
      expect(statuses).toEqual([400, 400, 400, 429]);
    } finally {
      app.strapi.config.set('security.authRateLimit.max', 1000);
    }
  });
});
