import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { TOTP } from 'otpauth';
import { boot, type TestApp } from '../helpers/app';
import { signUp } from '../helpers/members';
import { settleMail } from '../helpers/mail-queue';
import { resetCodeOf, type OutboxEmail } from '../helpers/outbox';
import { softwarePasskey } from '../helpers/software-authenticator';
import { OWNER_EVENTS, recentPasskeysRemoved, type OwnerEvent } from '../../src/mail/owner-notice';
import { RECENT_PASSKEY_MINUTES } from '../../src/security/step-up';
import type { AccountDeletionService } from '../../src/api/account/services/account-deletion';

/**
 * Owner notices (docs/email.md#owner-notices): each change to an account's password, two-factor
 * authentication, recovery codes, passkeys or existence is told to the account's address, once, with
 * when, from which device and what to do; a refused attempt tells nothing. Read from the outbox.
 */

const ORIGIN = 'https://carnivo.test';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const OWNER_SUBJECTS = new Set<string>(Object.values(OWNER_EVENTS).map((event) => event.subject));

let app: TestApp;
let outbox: TestApp['outbox'];
let counter = 0;

type Body = Record<string, unknown> & {
  jwt?: string;
  user?: { id: number };
  secret?: string;
  recoveryCodes?: string[];
  data?: { id: number };
  error?: { message: string };
};

async function call(method: string, urlPath: string, options: { body?: unknown; token?: string } = {}) {
  const res = await fetch(app.baseUrl + urlPath, {
    method,
    headers: {
      'User-Agent': FIREFOX_LINUX,
      ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Body };
}

// Signed up from the same browser as every other request here: the notices name the device.
const member = () => signUp(app.baseUrl, `owner${++counter}x${Date.now() % 100000}`, { headers: { 'User-Agent': FIREFOX_LINUX } });

/** The owner notices delivered to `email` since the last look (every queued mail delivered first). */
async function noticesTo(email: string): Promise<OutboxEmail[]> {
  // A notice queued on a commit is written just after the answer: give it a moment, then deliver.
  await new Promise((resolve) => setTimeout(resolve, 150));
  await settleMail(app.strapi);
  return outbox.take(email).filter((mail) => OWNER_SUBJECTS.has(mail.headers.subject ?? ''));
}

/** Exactly one notice of `event` reached `email`, saying what, when (between `since` and now), from which device and what to do. */
async function expectOneNotice(email: string, event: OwnerEvent, since: number, username: string) {
  const first = await outbox.next(email);
  const notices = [first, ...(await noticesTo(email))].filter((mail) => OWNER_SUBJECTS.has(mail.headers.subject ?? ''));
  expect(notices.map((mail) => mail.headers.subject)).toEqual([OWNER_EVENTS[event].subject]);
  const [notice] = notices;
  const { text, html } = notice;
  expect(text).toContain(`Hello ${username},`);
  expect(text).toContain(OWNER_EVENTS[event].what);
  expect(text).toContain('Device: Firefox on Linux computer');
  const when = /When: (\d{4}-\d\d-\d\d \d\d:\d\d) UTC/.exec(text);
  expect(when, text).not.toBeNull();
  const at = Date.parse(`${when![1].replace(' ', 'T')}:00Z`);
  expect(at).toBeGreaterThanOrEqual(Math.floor(since / 60_000) * 60_000);
  expect(at).toBeLessThanOrEqual(Date.now());
  if (OWNER_EVENTS[event].help === 'reset') {
    expect(text).toContain(`${ORIGIN}/reset-password`);
    expect(text).toContain(`${ORIGIN}/profile?tab=security`);
  } else {
    expect(text).toContain(`${ORIGIN}/contact`);
  }
  expect(html).toContain('Firefox on Linux computer');
  return notice;
}

const codeOf = (secret: string) => TOTP.generate({ secret: new TOTP({ secret }).secret });

beforeAll(async () => {
  app = await boot({ outbox: true, limits: 'off', env: { PUBLIC_URL: ORIGIN } });
  outbox = app.outbox;
});

afterAll(async () => {
  await app?.stop();
});

describe('owner notices', () => {
  it('a password change tells the owner; a refused one (wrong current password) tells nothing', async () => {
    const alice = await member();
    const wrong = await call('POST', '/api/auth/change-password', {
      token: alice.jwt,
      body: { currentPassword: 'not-her-password', password: 'New-Passw0rd-1', passwordConfirmation: 'New-Passw0rd-1' },
    });
    expect(wrong.status).toBe(400);
    expect(await noticesTo(alice.email)).toEqual([]);

    const since = Date.now();
    const changed = await call('POST', '/api/auth/change-password', {
      token: alice.jwt,
      body: { currentPassword: alice.password, password: 'New-Passw0rd-1', passwordConfirmation: 'New-Passw0rd-1' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await expectOneNotice(alice.email, 'password-changed', since, alice.username);
  });

  it('a password reset by code tells the owner; a wrong code tells nothing', async () => {
    const bob = await member();
    expect((await call('POST', '/api/auth/forgot-password', { body: { email: bob.email } })).status).toBe(200);
    const code = resetCodeOf(await outbox.next(bob.email));
    const body = { password: 'Reset-Passw0rd-1', passwordConfirmation: 'Reset-Passw0rd-1' };
    expect((await call('POST', '/api/auth/reset-password', { body: { ...body, code: 'WRONGCODE2' } })).status).toBe(400);
    expect(await noticesTo(bob.email)).toEqual([]);

    const since = Date.now();
    const reset = await call('POST', '/api/auth/reset-password', { body: { ...body, code } });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    await expectOneNotice(bob.email, 'password-reset', since, bob.username);
  });

  it('two-factor on, new recovery codes and two-factor off each tell the owner; refused attempts tell nothing', async () => {
    const carol = await member();
    const setup = await call('POST', '/api/two-factor/setup', { token: carol.jwt });
    expect(setup.status).toBe(200);
    expect((await call('POST', '/api/two-factor/enable', { token: carol.jwt, body: { code: '000000' } })).status).toBe(400);
    expect(await noticesTo(carol.email)).toEqual([]);

    let since = Date.now();
    const on = await call('POST', '/api/two-factor/enable', { token: carol.jwt, body: { code: codeOf(setup.body.secret!) } });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    await expectOneNotice(carol.email, 'two-factor-on', since, carol.username);

    expect((await call('POST', '/api/two-factor/recovery-codes', { token: carol.jwt, body: { code: 'AAAA-BBBB' } })).status).toBe(400);
    expect(await noticesTo(carol.email)).toEqual([]);
    since = Date.now();
    const codes = await call('POST', '/api/two-factor/recovery-codes', { token: carol.jwt, body: { code: on.body.recoveryCodes![0] } });
    expect(codes.status, JSON.stringify(codes.body)).toBe(200);
    await expectOneNotice(carol.email, 'recovery-codes', since, carol.username);

    const recovery = codes.body.recoveryCodes!;
    const wrong = await call('POST', '/api/two-factor/disable', { token: carol.jwt, body: { password: 'nope-nope-1', code: recovery[0] } });
    expect(wrong.status).toBe(400);
    expect(await noticesTo(carol.email)).toEqual([]);
    since = Date.now();
    const off = await call('POST', '/api/two-factor/disable', { token: carol.jwt, body: { password: carol.password, code: recovery[0] } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    await expectOneNotice(carol.email, 'two-factor-off', since, carol.username);
  });

  it('a passkey added or removed tells its owner; removing another member’s passkey tells no one', async () => {
    const dave = await member();
    const erin = await member();
    const options = await call('POST', '/api/passkeys/registration-options', { token: dave.jwt });
    expect(options.status).toBe(200);
    const passkey = softwarePasskey({ origin: ORIGIN, rpId: 'carnivo.test' });
    let since = Date.now();
    const added = await call('POST', '/api/passkeys', {
      token: dave.jwt,
      body: { credential: passkey.register(options.body as never), name: 'Laptop' },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    await expectOneNotice(dave.email, 'passkey-added', since, dave.username);

    expect((await call('DELETE', `/api/passkeys/${added.body.data!.id}`, { token: erin.jwt })).status).toBe(404);
    expect(await noticesTo(dave.email)).toEqual([]);
    expect(await noticesTo(erin.email)).toEqual([]);

    since = Date.now();
    expect((await call('DELETE', `/api/passkeys/${added.body.data!.id}`, { token: dave.jwt })).status).toBe(200);
    await expectOneNotice(dave.email, 'passkey-removed', since, dave.username);
  });

  it('"Log out of all devices" that removes a recent passkey tells the owner once, naming it and why; with none recent, nothing', async () => {
    const kate = await member();
    const passkeys = () => app.strapi.db.query('api::passkey.passkey').findMany({ where: { user: { id: kate.id } }, select: ['name'] });
    // No recent passkey: nothing removed, no passkey notice.
    expect((await call('POST', '/api/auth/logout-all', { token: kate.jwt })).status).toBe(200);
    expect(await noticesTo(kate.email)).toEqual([]);

    const signedIn = await call('POST', '/api/auth/local', { body: { identifier: kate.email, password: kate.password } });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const jwt = signedIn.body.jwt!;
    const options = await call('POST', '/api/passkeys/registration-options', { token: jwt });
    expect(options.status).toBe(200);
    const passkey = softwarePasskey({ origin: ORIGIN, rpId: 'carnivo.test' });
    const added = await call('POST', '/api/passkeys', {
      token: jwt,
      body: { credential: passkey.register(options.body as never), name: 'Work laptop' },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(await noticesTo(kate.email)).toHaveLength(1); // passkey-added, told by the test above

    const since = Date.now();
    expect((await call('POST', '/api/auth/logout-all', { token: jwt })).status).toBe(200);
    expect(await passkeys()).toEqual([]);
    const notice = await expectOneNotice(kate.email, 'passkey-removed', since, kate.username);
    expect(notice.text).toContain(recentPasskeysRemoved(['Work laptop'], 'logout-all', RECENT_PASSKEY_MINUTES));
    expect(notice.text).toContain('Removed: 1 passkey added in the last 60 minutes ("Work laptop"), because every device was logged out');
  });

  it('a password change that removes recent passkeys tells the owner of both, the passkeys by name', async () => {
    const lou = await member();
    for (const name of ['Phone', 'Key "A"']) {
      const options = await call('POST', '/api/passkeys/registration-options', { token: lou.jwt });
      const passkey = softwarePasskey({ origin: ORIGIN, rpId: 'carnivo.test' });
      const added = await call('POST', '/api/passkeys', {
        token: lou.jwt,
        body: { credential: passkey.register(options.body as never), name },
      });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
    }
    expect(await noticesTo(lou.email)).toHaveLength(2);
    const changed = await call('POST', '/api/auth/change-password', {
      token: lou.jwt,
      body: { currentPassword: lou.password, password: 'Lou-Passw0rd-2', passwordConfirmation: 'Lou-Passw0rd-2' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await app.strapi.db.query('api::passkey.passkey').count({ where: { user: { id: lou.id } } })).toBe(0);
    const notices = await noticesTo(lou.email);
    expect(notices.map((mail) => mail.headers.subject).sort()).toEqual(
      [OWNER_EVENTS['password-changed'].subject, OWNER_EVENTS['passkey-removed'].subject].sort(),
    );
    const removed = notices.find((mail) => mail.headers.subject === OWNER_EVENTS['passkey-removed'].subject)!;
    expect(removed.text).toContain(recentPasskeysRemoved(['Phone', 'Key "A"'], 'password', RECENT_PASSKEY_MINUTES));
    expect(removed.html).toContain('Key &quot;A&quot;');
  });

  it('a deletion that fails (a clean-up refuses) tells no one, and the account stays', async () => {
    const ivy = await member();
    const deletion = app.strapi.service('api::account.account-deletion') as unknown as AccountDeletionService;
    deletion.registerCleanup('owner-notices-refuses-ivy', (user) => {
      if (user.id === ivy.id) throw new Error('gateway unreachable');
    });
    const refused = await call('DELETE', '/api/users-permissions/users/delete-account', { token: ivy.jwt });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(await app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { id: ivy.id } })).not.toBeNull();
    expect(await noticesTo(ivy.email)).toEqual([]);
  });

  it('a passkey that fails verification is not added and tells no one', async () => {
    const jack = await member();
    const options = await call('POST', '/api/passkeys/registration-options', { token: jack.jwt });
    const passkey = softwarePasskey({ origin: 'https://evil.test', rpId: 'evil.test' });
    const refused = await call('POST', '/api/passkeys', { token: jack.jwt, body: { credential: passkey.register(options.body as never) } });
    expect(refused.status).toBe(400);
    expect(await app.strapi.db.query('api::passkey.passkey').count({ where: { user: { id: jack.id } } })).toBe(0);
    expect(await noticesTo(jack.email)).toEqual([]);
  });

  it('a deleted account is told at the address it had, with the way to contact us', async () => {
    const frank = await member();
    const since = Date.now();
    const deleted = await call('DELETE', '/api/users-permissions/users/delete-account', { token: frank.jwt });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { id: frank.id } })).toBeNull();
    await expectOneNotice(frank.email, 'account-deleted', since, frank.username);
  });

  it('a requested e-mail change tells the old address when and from which device', async () => {
    const gail = await member();
    const newEmail = `gail-new${counter}@example.com`;
    const res = await call('PUT', `/api/users/${gail.id}`, { token: gail.jwt, body: { email: newEmail, currentPassword: gail.password } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await settleMail(app.strapi);
    const notices = outbox.take(gail.email);
    expect(notices.map((mail) => mail.headers.subject)).toEqual(['A change of your Carnivo e-mail address was requested']);
    expect(notices[0].text).toMatch(/It was asked at \d{4}-\d\d-\d\d \d\d:\d\d UTC from Firefox on Linux computer\./);
    expect(outbox.take(newEmail)).toHaveLength(1);
  });

  it('a notice that cannot be queued neither fails nor undoes the change', async () => {
    const hank = await member();
    const queue = app.strapi.service('api::email-message.mail-queue') as unknown as { enqueue: (...args: unknown[]) => Promise<number> };
    const enqueue = queue.enqueue;
    queue.enqueue = async () => {
      throw new Error('mail queue unreachable');
    };
    try {
      const changed = await call('POST', '/api/auth/change-password', {
        token: hank.jwt,
        body: { currentPassword: hank.password, password: 'Hank-Passw0rd-2', passwordConfirmation: 'Hank-Passw0rd-2' },
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    } finally {
      queue.enqueue = enqueue;
    }
    // The new password is the one that works.
    expect((await call('POST', '/api/auth/local', { body: { identifier: hank.email, password: 'Hank-Passw0rd-2' } })).status).toBe(200);
    expect((await call('POST', '/api/auth/local', { body: { identifier: hank.email, password: hank.password } })).status).toBe(400);
    expect(await noticesTo(hank.email)).toEqual([]);
  });
});
