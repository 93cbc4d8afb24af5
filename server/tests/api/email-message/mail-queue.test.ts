import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { request } from '../../helpers/strapi';
import { PG, postgresEnv, withPostgres } from '../../helpers/instances';
import { resetCodeOf } from '../../helpers/outbox';
import { mailQueueOf } from '../../helpers/mail-queue';
import { sealText } from '../../../src/security/at-rest';
import { boot, type TestApp } from '../../helpers/app';

/**
 * The mail queue (docs/operations.md#mail-queue), driven by hand (EMAIL_WORKER=off): each e-mail is
 * written with the change that causes it, claimed once, retried with backoff, failed after
 * EMAIL_MAX_ATTEMPTS, and taken over when its instance's lease expires. On SQLite, and on PostgreSQL
 * (real concurrent connections, FOR UPDATE SKIP LOCKED) when one answers.
 */

const pgReachable = await withPostgres(async () => true).catch((error: Error) => {
  console.warn(`[mail-queue.test] PostgreSQL part skipped: no PostgreSQL at ${PG.host}:${PG.port} (${error.message})`);
  return false;
});

const MESSAGE = 'api::email-message.email-message';
const USER = 'plugin::users-permissions.user';

interface MessageRow {
  id: number;
  to: string;
  kind: string;
  status: string;
  attempts: number;
  text: string | null;
  html: string | null;
  message_id: string;
  last_error: string | null;
  claimed_by: string | null;
  next_attempt_at: string | Date | null;
  sent_at: string | Date | null;
}

interface Provider {
  send(options: { to: string; messageId?: string }): Promise<unknown>;
}

function mailQueueSuite(label: string, setup: { env: () => Record<string, string>; schema?: string; after?: () => Promise<void> }) {
  let app: TestApp;
  let provider: Provider;
  let realSend: Provider['send'];

  const messages = () => app.strapi.db.query(MESSAGE);
  const rowsTo = async (to: string) => (await messages().findMany({ where: { to }, orderBy: { id: 'asc' } })) as MessageRow[];
  const queue = () => mailQueueOf(app.strapi);
  const qualified = (table: string) => (setup.schema ? `"${setup.schema}"."${table}"` : `"${table}"`);

  const register = (name: string) => app.register(name);
  const storedToken = async (id: number) =>
    ((await app.strapi.db.query(USER).findOne({ where: { id }, select: ['resetPasswordToken'] })) as { resetPasswordToken: string | null })
      .resetPasswordToken;

  /** A database trigger that refuses to queue mail to `to`: a failure after the change was written. */
  const refuseMailTo = async (to: string) => {
    const knex = app.strapi.db.connection;
    if (setup.schema) {
      await knex.raw(
        `CREATE OR REPLACE FUNCTION ${qualified('refuse_mail')}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."to" = '${to}' THEN RAISE EXCEPTION 'mail refused'; END IF; RETURN NEW; END $$`,
      );
      await knex.raw(
        `CREATE TRIGGER refuse_mail BEFORE INSERT ON ${qualified('email_messages')} FOR EACH ROW EXECUTE FUNCTION ${qualified('refuse_mail')}()`,
      );
      return () => knex.raw(`DROP TRIGGER refuse_mail ON ${qualified('email_messages')}`);
    }
    await knex.raw(
      `CREATE TRIGGER refuse_mail BEFORE INSERT ON email_messages WHEN NEW."to" = '${to}' BEGIN SELECT RAISE(ABORT, 'mail refused'); END`,
    );
    return () => knex.raw('DROP TRIGGER refuse_mail');
  };

  describe(`the mail queue (${label})`, () => {
    beforeAll(async () => {
      app = await boot({
        outbox: true,
        limits: 'off',
        env: {
          EMAIL_WORKER: 'off',
          EMAIL_MAX_ATTEMPTS: '3',
          EMAIL_BACKOFF_BASE_MS: '1000',
          EMAIL_BACKOFF_MAX_MS: '60000',
          EMAIL_LEASE_MS: '30000',
          EMAIL_BATCH_SIZE: '5',
          ...setup.env(),
        },
      });
      provider = app.strapi.plugin('email').provider as Provider;
      realSend = provider.send;
    });
    afterAll(async () => {
      await app?.stop();
      await setup.after?.();
    });

    it('commits the reset code and its e-mail before answering; the worker delivers it once and wipes the body', async () => {
      const alice = await register(`alice${label}`);
      const res = await request(app.baseUrl, 'POST', '/api/auth/forgot-password', { body: { email: alice.email } });
      expect(res.status).toBe(200);
      // Nothing delivered yet (the worker is off), but both the code and its e-mail are stored.
      const [queued, ...more] = await rowsTo(alice.email);
      expect(more).toEqual([]);
      expect(queued).toMatchObject({ kind: 'reset', status: 'queued', attempts: 0 });
      // The body holding the code is stored encrypted (docs/security.md#the-admin-panel): whoever reads the table reads no code.
      expect(queued.text).toMatch(/^v1\./);
      expect(queued.html ?? 'v1.').toMatch(/^v1\./);
      expect(`${queued.text} ${queued.html}`).not.toMatch(/reset code/i);
      expect(await storedToken(alice.id)).not.toBeNull();
      expect(app.outbox.take(alice.email)).toEqual([]);

      const run = await queue().worker.drain();
      expect(run.sent).toBeGreaterThanOrEqual(1);
      const [email, ...others] = app.outbox.take(alice.email);
      expect(others).toEqual([]);
      // Decrypted for the provider only: the member gets the code the account holds.
      const code = resetCodeOf(email);
      expect(await storedToken(alice.id)).toBe(crypto.createHash('sha256').update(code).digest('hex'));
      expect(queued.text).not.toContain(code);
      const [sent] = await rowsTo(alice.email);
      expect(sent).toMatchObject({ status: 'sent', attempts: 1, text: null, html: null, claimed_by: null });
      expect(sent.sent_at).not.toBeNull();
      await queue().worker.drain();
      expect(app.outbox.take(alice.email)).toEqual([]);
    });

    it('sends a secret message queued before bodies were encrypted (an upgrade with mail waiting), and one no key opens fails', async () => {
      const legacy = await queue().enqueue({
        kind: 'reset',
        to: `olga${label}@example.com`,
        subject: 'Code',
        text: 'Your reset code: LEGACY1',
      });
      await messages().update({ where: { id: legacy }, data: { text: 'Your reset code: LEGACY1', html: null } });
      const foreign = await queue().enqueue({
        kind: 'reset',
        to: `pete${label}@example.com`,
        subject: 'Code',
        text: 'Your reset code: OTHER1',
      });
      // Sealed under a key this server does not have.
      const { message_id: messageId } = (await messages().findOne({ where: { id: foreign } })) as MessageRow;
      await messages().update({
        where: { id: foreign },
        data: { text: sealText('Your reset code: OTHER1', 'another server', messageId, ['another key']), html: null },
      });
      await queue().worker.drain();
      expect(resetCodeOf(app.outbox.take(`olga${label}@example.com`)[0])).toBe('LEGACY1');
      expect(app.outbox.take(`pete${label}@example.com`)).toEqual([]);
      expect(await messages().findOne({ where: { id: foreign } })).toMatchObject({
        status: 'queued',
        last_error: expect.stringContaining('cannot be decrypted'),
      });
      await messages().delete({ where: { id: foreign } });
    });

    it('rolls back the reset code when its e-mail cannot be written (and answers the same)', async () => {
      const bob = await register(`bob${label}`);
      const drop = await refuseMailTo(bob.email);
      try {
        const res = await request(app.baseUrl, 'POST', '/api/auth/forgot-password', { body: { email: bob.email } });
        expect([res.status, res.body]).toEqual([200, { ok: true }]);
      } finally {
        await drop();
      }
      expect(await storedToken(bob.id)).toBeNull();
      expect(await rowsTo(bob.email)).toEqual([]);
    });

    it('queues the e-mail-change link and notice with the pending change, and writes neither when one cannot be queued', async () => {
      const carl = await register(`carl${label}`);
      const drop = await refuseMailTo(carl.email);
      try {
        const refused = await request(app.baseUrl, 'PUT', `/api/users/${carl.id}`, {
          token: carl.jwt,
          body: { email: `carl.new${label}@example.com`, currentPassword: carl.password },
        });
        expect(refused.status, JSON.stringify(refused.body)).toBe(500);
      } finally {
        await drop();
      }
      const unchanged = (await app.strapi.db.query(USER).findOne({ where: { id: carl.id }, select: ['email', 'pending_email'] })) as {
        email: string;
        pending_email: string | null;
      };
      expect(unchanged).toEqual({ email: carl.email, pending_email: null });
      expect(await rowsTo(`carl.new${label}@example.com`)).toEqual([]);

      const res = await request(app.baseUrl, 'PUT', `/api/users/${carl.id}`, {
        token: carl.jwt,
        body: { email: `carl.new${label}@example.com`, currentPassword: carl.password },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const [notice] = await rowsTo(carl.email);
      expect(notice).toMatchObject({ kind: 'email-change', status: 'queued' });
      const [link] = await rowsTo(`carl.new${label}@example.com`);
      expect(link).toMatchObject({ kind: 'email-change', status: 'queued' });
    });

    it('writes the confirmation token and its e-mail together', async () => {
      const dora = await register(`dora${label}`);
      await app.strapi.db.query(USER).update({ where: { id: dora.id }, data: { confirmed: false } });
      const res = await request(app.baseUrl, 'POST', '/api/auth/send-email-confirmation', { body: { email: dora.email } });
      expect(res.status).toBe(200);
      const [row] = await rowsTo(dora.email);
      expect(row).toMatchObject({ kind: 'confirmation', status: 'queued' });
      const { confirmationToken } = (await app.strapi.db
        .query(USER)
        .findOne({ where: { id: dora.id }, select: ['confirmationToken'] })) as {
        confirmationToken: string;
      };
      expect(confirmationToken).toMatch(/^[0-9a-f]{40}$/);
      // Stored encrypted; the member's e-mail has the token.
      expect(row.text).not.toContain(confirmationToken);
      await queue().worker.drain();
      const [email] = app.outbox.take(dora.email);
      expect(email.text).toContain(confirmationToken);
    });

    it('retries with exponential backoff and marks the message failed after EMAIL_MAX_ATTEMPTS, keeping the error', async () => {
      await queue().worker.drain();
      const reset = await queue().enqueue({
        kind: 'reset',
        to: `eve${label}@example.com`,
        subject: 'Code',
        text: 'Your reset code: SECRET',
      });
      const reminder = await queue().enqueue({ kind: 'reminder', to: `eve${label}@example.com`, subject: 'Goal', text: 'Keep going' });
      const byId = async (id: number) => (await messages().findOne({ where: { id } })) as MessageRow;
      provider.send = async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:25');
      };
      try {
        const t0 = Date.now() + 1_000;
        const at = (ms: number) => ({ now: new Date(t0 + ms) });
        expect(await queue().worker.deliverDue(at(0))).toEqual({ claimed: 2, sent: 0, retrying: 2, failed: 0, lost: 0 });
        const first = await byId(reset);
        expect(first).toMatchObject({ status: 'queued', attempts: 1, last_error: 'connect ECONNREFUSED 127.0.0.1:25' });
        expect(new Date(first.next_attempt_at!).getTime()).toBe(t0 + 1_000);

        expect((await queue().worker.deliverDue(at(999))).claimed).toBe(0);
        expect(await queue().worker.deliverDue(at(1_000))).toMatchObject({ claimed: 2, retrying: 2 });
        expect(new Date((await byId(reset)).next_attempt_at!).getTime()).toBe(t0 + 1_000 + 2_000);
        expect((await queue().worker.deliverDue(at(2_999))).claimed).toBe(0);
        expect(await queue().worker.deliverDue(at(3_000))).toMatchObject({ claimed: 2, failed: 2 });
        expect((await queue().worker.deliverDue(at(10_000_000))).claimed).toBe(0);
      } finally {
        provider.send = realSend;
      }
      expect(await byId(reset)).toMatchObject({
        status: 'failed',
        attempts: 3,
        text: null,
        last_error: 'connect ECONNREFUSED 127.0.0.1:25',
      });
      // Not a secret: kept, so an administrator can queue it again.
      expect(await byId(reminder)).toMatchObject({ status: 'failed', attempts: 3, text: 'Keep going' });
      expect(app.outbox.take(`eve${label}@example.com`)).toEqual([]);
    });

    it('takes over a message whose instance died while sending it once the lease expires, and not before', async () => {
      const id = await queue().enqueue({ kind: 'other', to: `finn${label}@example.com`, subject: 'Hi', text: 'Hello' });
      const now = Date.now();
      // What a crashed instance leaves: claimed, lease running.
      await messages().update({
        where: { id },
        data: { status: 'sending', attempts: 1, claimed_by: 'dead-instance', claimed_until: new Date(now + 30_000) },
      });
      expect((await queue().worker.deliverDue({ now: new Date(now + 29_000) })).claimed).toBe(0);
      expect(app.outbox.take(`finn${label}@example.com`)).toEqual([]);
      expect(await queue().worker.deliverDue({ now: new Date(now + 31_000) })).toMatchObject({ claimed: 1, sent: 1 });
      expect(app.outbox.take(`finn${label}@example.com`)).toHaveLength(1);
      expect(await messages().findOne({ where: { id } })).toMatchObject({ status: 'sent', attempts: 2 });

      // Its last allowed attempt died with it: failed, not sent a fourth time.
      const last = await queue().enqueue({ kind: 'other', to: `gus${label}@example.com`, subject: 'Hi', text: 'Hello' });
      await messages().update({
        where: { id: last },
        data: { status: 'sending', attempts: 3, claimed_by: 'dead-instance', claimed_until: new Date(now) },
      });
      expect((await queue().worker.deliverDue({ now: new Date(now + 1_000) })).claimed).toBe(0);
      expect(await messages().findOne({ where: { id: last } })).toMatchObject({
        status: 'failed',
        last_error: expect.stringContaining('lease expired'),
        text: 'Hello',
      });

      // A reset code abandoned so does not stay in the table: its body goes, as on any final failure.
      const secret = await queue().enqueue({ kind: 'reset', to: `hal${label}@example.com`, subject: 'Code', text: 'Your reset code: ABC' });
      await messages().update({
        where: { id: secret },
        data: { status: 'sending', attempts: 3, claimed_by: 'dead-instance', claimed_until: new Date(now) },
      });
      await queue().worker.deliverDue({ now: new Date(now + 1_000) });
      expect(await messages().findOne({ where: { id: secret } })).toMatchObject({ status: 'failed', text: null, html: null });
    });

    it('renews the lease before each send: a batch slower than the lease is not sent twice when another worker takes its tail', async () => {
      await queue().worker.drain();
      const ids: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        ids.push(
          await queue().enqueue({ kind: 'reset', to: `slow${i}${label}@example.com`, subject: 'Code', text: `Your reset code: SLOW${i}` }),
        );
      }
      const delivered: string[] = [];
      const slow = queue().createWorker('slow-batch', { leaseMs: 1_000, batchSize: 3 });
      const other = queue().createWorker('poller', { leaseMs: 1_000, batchSize: 3 });
      // The other instance polls, as every instance does, from the moment the slow one has claimed the batch.
      let polling = true;
      let polls: Promise<number> | undefined;
      const poll = async () => {
        let sent = 0;
        while (polling) {
          sent += (await other.deliverDue()).sent;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return sent;
      };
      // A slow SMTP server: each send takes 60 % of the lease, so the third message's claim runs out during the second send.
      provider.send = async (options) => {
        polls ??= poll();
        await new Promise((resolve) => setTimeout(resolve, 600));
        delivered.push(options.messageId ?? '');
        return realSend.call(provider, options);
      };
      try {
        const run = await slow.deliverDue();
        polling = false;
        const otherSent = await polls!;
        expect(run.claimed).toBe(3);
        // The poller took the third message when its lease ran out; the slow worker saw its renewal refused and left it.
        expect(run.lost).toBeGreaterThanOrEqual(1);
        expect(run.sent + otherSent).toBe(3);
      } finally {
        provider.send = realSend;
      }
      const rows = (await messages().findMany({ where: { id: { $in: ids } } })) as MessageRow[];
      expect(delivered).toHaveLength(3);
      expect(new Set(delivered)).toEqual(new Set(rows.map((row) => row.message_id)));
      for (const row of rows) expect(app.outbox.take(row.to)).toHaveLength(1);
      expect(rows.every((row) => row.status === 'sent' && row.text === null)).toBe(true);
    });

    it('delivers each message exactly once when three workers race', async () => {
      await queue().worker.drain();
      const count = 30;
      const ids = new Set<number>();
      for (let i = 0; i < count; i += 1) {
        ids.add(await queue().enqueue({ kind: 'other', to: `race${i}${label}@example.com`, subject: `Race ${i}`, text: 'Hello' }));
      }
      const delivered: string[] = [];
      provider.send = async (options) => {
        delivered.push(options.messageId ?? '');
        // Slow enough that the workers' claims interleave.
        await new Promise((resolve) => setTimeout(resolve, 2 + Math.floor(Math.random() * 5)));
        return realSend.call(provider, options);
      };
      try {
        const workers = [queue().worker, queue().createWorker('racer-1'), queue().createWorker('racer-2')];
        const runs = await Promise.all(workers.map((worker) => worker.drain()));
        expect(runs.reduce((sum, run) => sum + run.sent, 0)).toBe(count);
        // Each worker got some (the claims really raced).
        console.info(`[mail-queue.test] ${label}: sent per worker ${runs.map((run) => run.sent).join(', ')}`);
      } finally {
        provider.send = realSend;
      }
      expect(delivered).toHaveLength(count);
      expect(new Set(delivered).size).toBe(count);
      const rows = (await messages().findMany({ where: { id: { $in: [...ids] } } })) as MessageRow[];
      expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
    });
  });
}

mailQueueSuite('sqlite', { env: () => ({}) });

const schema = `carnivo_mailq_${crypto.randomBytes(4).toString('hex')}`;
describe.skipIf(!pgReachable)('on PostgreSQL', () => {
  beforeAll(async () => {
    await withPostgres((client) => client.query(`CREATE SCHEMA "${schema}"`));
  });
  mailQueueSuite('postgres', {
    env: () => postgresEnv(schema),
    schema,
    after: () => withPostgres((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)).then(() => undefined),
  });
});
