import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { missingServices, startCluster, type Cluster, type Instance } from '../helpers/instances';
import { createOutboxReader } from '../helpers/outbox';
import { ORIGIN, RP_ID, codeOf, awayFromStepEdge, type Body } from '../helpers/step-up-attacks';
import { softwarePasskey } from '../helpers/software-authenticator';
import { OWNER_EVENTS, type OwnerEvent } from '../../src/mail/owner-notice';

/**
 * Owner notices (docs/email.md#owner-notices) on two instances sharing one PostgreSQL database (the
 * durable queue) and one outbox: each change, on whichever instance it is made, queues exactly one
 * notice to the account's address, and the workers of both deliver it once; a refused attempt queues
 * nothing. Counted in the email_messages table and in the outbox.
 */

const missing = await missingServices();
if (missing) console.warn(`[owner-notices-cluster.test] skipped: ${missing}`);

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const OWNER_SUBJECTS: string[] = Object.values(OWNER_EVENTS).map((event) => event.subject);

let cluster: Cluster;
let a: Instance;
let b: Instance;
const call = (instance: Instance, method: string, urlPath: string, options: { body?: unknown; token?: string } = {}) =>
  cluster.call<Body>(instance, method, urlPath, { ...options, headers: { 'User-Agent': FIREFOX_LINUX } });
const sql: Cluster['sql'] = (...args) => cluster.sql(...args);

/** Subjects of the owner notices queued to `address` (any status), oldest first. */
const queuedNotices = async (address: string) =>
  (
    await sql<{ subject: string }>('SELECT subject FROM email_messages WHERE "to" = $1 AND subject = ANY($2) ORDER BY id', [
      address,
      OWNER_SUBJECTS,
    ])
  ).map((row) => row.subject);

/** Subjects of the owner notices the outbox holds for `address`, once both workers have delivered all queued to it. */
async function deliveredNotices(address: string): Promise<string[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const [{ n }] = await sql<{ n: string }>(
      `SELECT count(*) AS n FROM email_messages WHERE "to" = $1 AND status IN ('queued', 'sending')`,
      [address],
    );
    if (Number(n) === 0) break;
    if (Date.now() > deadline) throw new Error(`mail to ${address} still queued after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return createOutboxReader(cluster.outboxDir)
    .take(address)
    .filter((mail) => OWNER_SUBJECTS.includes(mail.headers.subject ?? ''))
    .map((mail) => `${mail.headers.subject} | ${/Device: ([^\r\n]+)/.exec(mail.text)?.[1]}`);
}

/** A notice queued on commit is written just after the answer: give it a moment before counting. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

/** Exactly these notices, in this order, queued and delivered to `address`, each naming the device. */
async function expectNotices(address: string, events: OwnerEvent[]) {
  await settle();
  const subjects = events.map((event) => OWNER_EVENTS[event].subject);
  expect(await queuedNotices(address)).toEqual(subjects);
  expect((await deliveredNotices(address)).sort()).toEqual(subjects.map((subject) => `${subject} | Firefox on Linux computer`).sort());
}

let count = 0;
const register = (instance: Instance) =>
  cluster.register(instance, `clusternotice${++count}x${Date.now() % 100000}`, { headers: { 'User-Agent': FIREFOX_LINUX } });

describe.skipIf(missing !== null)('owner notices on two instances (PostgreSQL, one queue)', () => {
  beforeAll(async () => {
    // One PUBLIC_URL for both: the passkeys' relying party.
    cluster = await startCluster(2, {
      EMAIL_POLL_MS: '200',
      AUTH_RATELIMIT_ENABLED: 'false',
      PUBLIC_URL: ORIGIN,
    });
    [a, b] = cluster.instances;
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  it('a password change on A tells the owner once; a wrong current password on B and on A tells nothing', async () => {
    const member = await register(a);
    for (const instance of [b, a]) {
      const wrong = await call(instance, 'POST', '/api/auth/change-password', {
        token: member.jwt,
        body: { currentPassword: 'not-the-password-1', password: 'New-Passw0rd-1', passwordConfirmation: 'New-Passw0rd-1' },
      });
      expect(wrong.status, JSON.stringify(wrong.body)).toBe(400);
    }
    await settle();
    expect(await queuedNotices(member.email)).toEqual([]);

    const changed = await call(a, 'POST', '/api/auth/change-password', {
      token: member.jwt,
      body: { currentPassword: member.password, password: 'New-Passw0rd-1', passwordConfirmation: 'New-Passw0rd-1' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await expectNotices(member.email, ['password-changed']);
  });

  it('two-factor turned on on B (set up on A) tells the owner once; a wrong code tells nothing', async () => {
    const member = await register(a);
    const setup = await call(a, 'POST', '/api/two-factor/setup', { token: member.jwt });
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    expect((await call(b, 'POST', '/api/two-factor/enable', { token: member.jwt, body: { code: '000000' } })).status).toBe(400);
    await settle();
    expect(await queuedNotices(member.email)).toEqual([]);

    await awayFromStepEdge();
    const on = await call(b, 'POST', '/api/two-factor/enable', { token: member.jwt, body: { code: codeOf(setup.body.secret!) } });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    await expectNotices(member.email, ['two-factor-on']);
  });

  it('a passkey added on B (options from A) and removed on A tells the owner once each', async () => {
    const member = await register(a);
    const passkey = softwarePasskey({ origin: ORIGIN, rpId: RP_ID });
    const options = await call(a, 'POST', '/api/passkeys/registration-options', { token: member.jwt });
    expect(options.status, JSON.stringify(options.body)).toBe(200);
    const added = await call(b, 'POST', '/api/passkeys', {
      token: member.jwt,
      body: { credential: passkey.register(options.body as { challenge: string }), name: 'Laptop' },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    await expectNotices(member.email, ['passkey-added']);

    // Another member cannot remove it, and nobody is told.
    const stranger = await register(b);
    const id = (added.body.data as { id: number }).id;
    expect((await call(b, 'DELETE', `/api/passkeys/${id}`, { token: stranger.jwt })).status).toBe(404);
    await settle();
    expect(await queuedNotices(member.email)).toHaveLength(1);
    expect(await queuedNotices(stranger.email)).toEqual([]);

    expect((await call(a, 'DELETE', `/api/passkeys/${id}`, { token: member.jwt })).status).toBe(200);
    expect(await sql('SELECT passkey_id FROM passkeys_user_lnk WHERE user_id = $1', [member.id])).toEqual([]);
    await expectNotices(member.email, ['passkey-added', 'passkey-removed']);
  });

  it('an account deleted on B tells the address it had, once', async () => {
    const member = await register(a);
    const deleted = await call(b, 'DELETE', '/api/users-permissions/users/delete-account', { token: member.jwt });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await sql('SELECT id FROM up_users WHERE id = $1', [member.id])).toEqual([]);
    await expectNotices(member.email, ['account-deleted']);
  });
});
