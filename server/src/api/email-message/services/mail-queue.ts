import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import os from 'node:os';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { UID } from '../../../content-types';
import { emailMessages, isValidEmail } from '../../../contract/fieldRules';
import { openText, sealText, serverKeys } from '../../../security/at-rest';
import { deliverToProvider } from '../../../mail/deliver';

/**
 * The mail queue (docs/operations.md#mail-queue). Every e-mail is a row of `email_messages`, written in
 * the transaction of the change that causes it; a worker on every instance claims due rows (a lease
 * in `claimed_until`), hands them to the email plugin's provider and records the outcome.
 */

export const EMAIL_KINDS = ['reset', 'confirmation', 'email-change', 'reminder', 'other'] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];
export const EMAIL_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/**
 * Their bodies hold a secret (a reset code, a confirmation token, an e-mail change's link): stored
 * encrypted (src/security/at-rest.ts, the message id as additional data), decrypted only to hand the
 * message to the provider, and wiped once it is sent or has failed.
 */
const SECRET_KINDS: ReadonlySet<EmailKind> = new Set(['reset', 'confirmation', 'email-change']);
const BODY_PURPOSE = 'carnivo mail queue: body at rest';

export const EMAIL_TABLE = 'email_messages';

/** The kind of the mail that code we do not own (users-permissions) sends through the email plugin within this context. */
export const mailKindContext = new AsyncLocalStorage<EmailKind>();

export interface OutgoingEmail {
  kind: EmailKind;
  to: string;
  subject: string;
  text?: string;
  html?: string;
  headers?: Record<string, string>;
  from?: string;
  replyTo?: string;
}

export interface MailSettings {
  /** on: polls and delivers after each commit; kick: only after commits; off: only when driven (tests). */
  mode: 'on' | 'kick' | 'off';
  pollMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  maxAttempts: number;
  leaseMs: number;
  batchSize: number;
  /** Sent rows older than this are deleted (0 keeps them). */
  retentionMs: number;
}

const positiveInt = (name: string, value: string | undefined, fallback: number): number => {
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a whole number of 0 or more, not "${value}"`);
  return parsed;
};

export function mailSettingsFrom(env: NodeJS.ProcessEnv): MailSettings {
  const defaultMode = env.NODE_ENV === 'test' ? 'kick' : 'on';
  const mode = (env.EMAIL_WORKER ?? '').trim() || defaultMode;
  if (mode !== 'on' && mode !== 'kick' && mode !== 'off') throw new Error(`EMAIL_WORKER must be on, kick or off, not "${mode}"`);
  const maxAttempts = positiveInt('EMAIL_MAX_ATTEMPTS', env.EMAIL_MAX_ATTEMPTS, 8);
  if (maxAttempts < 1) throw new Error('EMAIL_MAX_ATTEMPTS must be at least 1');
  return {
    mode,
    pollMs: Math.max(100, positiveInt('EMAIL_POLL_MS', env.EMAIL_POLL_MS, 5_000)),
    backoffBaseMs: positiveInt('EMAIL_BACKOFF_BASE_MS', env.EMAIL_BACKOFF_BASE_MS, 30_000),
    backoffMaxMs: positiveInt('EMAIL_BACKOFF_MAX_MS', env.EMAIL_BACKOFF_MAX_MS, 60 * 60 * 1000),
    maxAttempts,
    leaseMs: Math.max(1_000, positiveInt('EMAIL_LEASE_MS', env.EMAIL_LEASE_MS, 120_000)),
    batchSize: Math.max(1, positiveInt('EMAIL_BATCH_SIZE', env.EMAIL_BATCH_SIZE, 20)),
    retentionMs: positiveInt('EMAIL_RETENTION_DAYS', env.EMAIL_RETENTION_DAYS, 30) * 24 * 60 * 60 * 1000,
  };
}

/** Wait before attempt `attempts + 1`: base, 2 × base, 4 × base ... at most backoffMaxMs. */
export function backoffMs(settings: Pick<MailSettings, 'backoffBaseMs' | 'backoffMaxMs'>, attempts: number): number {
  return Math.min(settings.backoffMaxMs, settings.backoffBaseMs * 2 ** Math.max(0, attempts - 1));
}

interface ClaimedRow {
  id: number;
  to: string;
  from_address: string | null;
  reply_to: string | null;
  subject: string;
  text: string | null;
  html: string | null;
  headers: Record<string, string> | string | null;
  message_id: string;
  sensitive: boolean | number | null;
  attempts: number;
}

export interface DeliveryRun {
  claimed: number;
  sent: number;
  retrying: number;
  failed: number;
  /** Claimed, then taken over by another worker (its lease ran out earlier in a slow batch) before this one sent it: not sent here. */
  lost: number;
}

export interface MailWorker {
  readonly instanceId: string;
  /** Claims due messages once and delivers them. */
  deliverDue(options?: { now?: Date }): Promise<DeliveryRun>;
  /** deliverDue until nothing is due (bounded), e.g. in tests. */
  drain(options?: { now?: Date; maxRounds?: number }): Promise<DeliveryRun>;
  /** Delivers soon (after a commit that queued mail); runs coalesce. */
  kick(): void;
  start(): void;
  /** Stops polling and waits for the delivery in progress. */
  stop(): Promise<void>;
}

export interface MailQueueService {
  settings: MailSettings;
  /** Queues the e-mail in the current transaction, if any; the worker is kicked after the commit. Returns the row id. */
  enqueue(email: OutgoingEmail): Promise<number>;
  /** The worker of this instance. */
  worker: MailWorker;
  /** Another worker (tests: two instances racing), with its own instance id. */
  createWorker(instanceId: string, settings?: Partial<MailSettings>): MailWorker;
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, 2000);

/** One address, by the rule every route checks first (docs/security.md#e-mail-addresses). */
const isAddress = (value: unknown): value is string => typeof value === 'string' && isValidEmail(value);

export default ({ strapi }: { strapi: Core.Strapi }): MailQueueService => {
  const settings = mailSettingsFrom(process.env);
  const keys = () => serverKeys(process.env.ENCRYPTION_KEY, (strapi.config.get('server.app.keys') as string[] | undefined) ?? []);
  const seal = (body: string | undefined, messageId: string) => (body ? sealText(body, BODY_PURPOSE, messageId, keys()) : null);
  const table = () => strapi.db.getConnection(EMAIL_TABLE);
  const isPostgres = () => strapi.db.dialect.client === 'postgres';

  /** Rows a worker may take at `now`: queued and due, or sending under an expired lease (its instance died). */
  const dueAt = (now: Date, maxAttempts: number) => (query: import('knex').Knex.QueryBuilder) =>
    query
      .where((queued) =>
        queued.where('status', 'queued').andWhere((due) => due.whereNull('next_attempt_at').orWhere('next_attempt_at', '<=', now)),
      )
      .orWhere((stale) => stale.where('status', 'sending').andWhere('claimed_until', '<', now).andWhere('attempts', '<', maxAttempts));

  function createWorker(instanceId: string, overrides: Partial<MailSettings> = {}): MailWorker {
    const config = { ...settings, ...overrides };
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<unknown> | undefined;
    let again = false;
    let stopped = false;

    const claimFields = (now: Date) => ({
      status: 'sending',
      claimed_by: instanceId,
      claimed_until: new Date(now.getTime() + config.leaseMs),
      updated_at: now,
    });

    /** Atomic claim: PostgreSQL skips rows another instance holds; SQLite writes one at a time, so a conditional update decides. */
    async function claim(now: Date): Promise<ClaimedRow[]> {
      const knex = strapi.db.connection;
      if (isPostgres()) {
        const ids = table()
          .select('id')
          .where(dueAt(now, config.maxAttempts))
          .orderBy('id')
          .limit(config.batchSize)
          .forUpdate()
          .skipLocked();
        return (await table()
          .whereIn('id', ids)
          .update({ ...claimFields(now), attempts: knex.raw('attempts + 1') })
          .returning('*')) as ClaimedRow[];
      }
      const candidates = (await table().select('id').where(dueAt(now, config.maxAttempts)).orderBy('id').limit(config.batchSize)) as {
        id: number;
      }[];
      const claimed: ClaimedRow[] = [];
      for (const { id } of candidates) {
        const count = await table()
          .where('id', id)
          .andWhere(dueAt(now, config.maxAttempts))
          .update({ ...claimFields(now), attempts: knex.raw('attempts + 1') });
        if (count === 1) claimed.push((await table().where({ id, claimed_by: instanceId }).first()) as ClaimedRow);
      }
      return claimed;
    }

    /** A message whose instance died while sending it for the last allowed time is not tried again; a secret in it goes, as on any final failure. */
    async function failAbandoned(now: Date): Promise<void> {
      const abandoned = () =>
        table().where('status', 'sending').andWhere('claimed_until', '<', now).andWhere('attempts', '>=', config.maxAttempts);
      await abandoned().andWhere('sensitive', true).update({ text: null, html: null });
      await abandoned().update({
        status: 'failed',
        last_error: 'the instance sending it stopped (lease expired)',
        claimed_by: null,
        claimed_until: null,
      });
    }

    async function deliver(row: ClaimedRow, now: Date, clock: () => Date): Promise<keyof DeliveryRun> {
      const headers = typeof row.headers === 'string' ? (JSON.parse(row.headers) as Record<string, string>) : (row.headers ?? undefined);
      const mine = () => table().where({ id: row.id, claimed_by: instanceId, status: 'sending' });
      const wipe = { text: null, html: null };
      // A full lease for this send: the earlier sends of the batch may have outlasted the claim's. Conditional,
      // so a message another worker took meanwhile (and may be sending) is not sent a second time from here.
      const renewed = await mine().update({ claimed_until: new Date(clock().getTime() + config.leaseMs), updated_at: new Date() });
      if (renewed === 0) return 'lost';
      try {
        const open = (body: string | null) => {
          if (body === null || !row.sensitive) return body ?? undefined;
          // Queued before bodies were encrypted (an upgrade with mail waiting): sent as it is, then wiped.
          if (!body.startsWith('v1.')) return body;
          const plain = openText(body, BODY_PURPOSE, row.message_id, keys());
          if (plain === null) throw new Error('the body cannot be decrypted (ENCRYPTION_KEY or APP_KEYS changed since it was queued)');
          return plain;
        };
        const text = open(row.text);
        const html = open(row.html);
        await deliverToProvider(strapi, {
          to: row.to,
          ...(row.from_address ? { from: row.from_address } : {}),
          ...(row.reply_to ? { replyTo: row.reply_to } : {}),
          subject: row.subject,
          text,
          html,
          headers,
          messageId: row.message_id,
        });
      } catch (error) {
        const finalAttempt = row.attempts >= config.maxAttempts;
        const lastError = errorText(error);
        await mine().update(
          finalAttempt
            ? {
                status: 'failed',
                last_error: lastError,
                claimed_by: null,
                claimed_until: null,
                updated_at: new Date(),
                ...(row.sensitive ? wipe : {}),
              }
            : {
                status: 'queued',
                last_error: lastError,
                claimed_by: null,
                claimed_until: null,
                next_attempt_at: new Date(now.getTime() + backoffMs(config, row.attempts)),
                updated_at: new Date(),
              },
        );
        strapi.log.warn(
          `[mail] message ${row.id} (${row.to}) attempt ${row.attempts}/${config.maxAttempts} failed${finalAttempt ? ', giving up' : ''}: ${lastError}`,
        );
        return finalAttempt ? 'failed' : 'retrying';
      }
      // Delivered: the bodies are not kept (reset codes, and no archive of members' mail).
      await mine().update({
        status: 'sent',
        sent_at: new Date(),
        last_error: null,
        claimed_by: null,
        claimed_until: null,
        updated_at: new Date(),
        ...wipe,
      });
      return 'sent';
    }

    async function deliverDue({ now = new Date() }: { now?: Date } = {}): Promise<DeliveryRun> {
      const run: DeliveryRun = { claimed: 0, sent: 0, retrying: 0, failed: 0, lost: 0 };
      // The run's time as it goes on (from `now`, which tests set ahead).
      const started = Date.now();
      const clock = () => new Date(now.getTime() + (Date.now() - started));
      await failAbandoned(now);
      const rows = await claim(now);
      run.claimed = rows.length;
      for (const row of rows) run[await deliver(row, now, clock)] += 1;
      return run;
    }

    async function drain({ now, maxRounds = 100 }: { now?: Date; maxRounds?: number } = {}): Promise<DeliveryRun> {
      const total: DeliveryRun = { claimed: 0, sent: 0, retrying: 0, failed: 0, lost: 0 };
      for (let round = 0; round < maxRounds; round += 1) {
        const run = await deliverDue({ now });
        for (const key of Object.keys(total) as (keyof DeliveryRun)[]) total[key] += run[key];
        // Zero, not fewer than a batch: racing workers may each claim part of one.
        if (run.claimed === 0) break;
      }
      return total;
    }

    async function prune(): Promise<void> {
      if (config.retentionMs <= 0) return;
      await table()
        .where('status', 'sent')
        .andWhere('sent_at', '<', new Date(Date.now() - config.retentionMs))
        .delete();
    }

    function runInBackground(): void {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      running = drain()
        .catch((error: unknown) => strapi.log.error(`[mail] delivery run failed: ${errorText(error)}`))
        .finally(() => {
          running = undefined;
          if (again) {
            again = false;
            runInBackground();
          }
        });
    }

    return {
      instanceId,
      deliverDue,
      drain,
      kick() {
        if (config.mode === 'off') return;
        setImmediate(runInBackground);
      },
      start() {
        stopped = false;
        if (config.mode !== 'on' || timer) return;
        let polls = 0;
        timer = setInterval(() => {
          polls += 1;
          // About hourly: old sent rows go.
          if (polls % Math.max(1, Math.round(3_600_000 / config.pollMs)) === 1) {
            prune().catch((error: unknown) => strapi.log.error(`[mail] pruning sent messages failed: ${errorText(error)}`));
          }
          runInBackground();
        }, config.pollMs);
        timer.unref();
        runInBackground();
      },
      async stop() {
        stopped = true;
        if (timer) clearInterval(timer);
        timer = undefined;
        await running;
      },
    };
  }

  const worker = createWorker(`${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`);

  return {
    settings,
    worker,
    createWorker,

    async enqueue(email) {
      if (!EMAIL_KINDS.includes(email.kind)) throw new Error(`mail queue: unknown kind "${String(email.kind)}"`);
      // A 400, should a caller ever skip its own check: never a 500, and nothing queued.
      if (!isAddress(email.to)) throw new errors.ValidationError(emailMessages.invalidFormat);
      if (typeof email.subject !== 'string' || email.subject.trim() === '') throw new Error('mail queue: a subject is required');
      if (!email.text && !email.html) throw new Error('mail queue: a text or html body is required');
      const now = new Date();
      const messageId = `<${crypto.randomUUID()}@carnivo.mail>`;
      const sensitive = SECRET_KINDS.has(email.kind);
      // Joins the caller's transaction when there is one (Strapi's transaction context), so the message commits with the change.
      return strapi.db.transaction(async ({ onCommit }) => {
        const row = (await strapi.db.query(UID.emailMessage).create({
          data: {
            to: email.to.trim(),
            from_address: email.from ?? null,
            reply_to: email.replyTo ?? null,
            subject: email.subject,
            text: sensitive ? seal(email.text, messageId) : (email.text ?? null),
            html: sensitive ? seal(email.html, messageId) : (email.html ?? null),
            headers: email.headers ?? null,
            message_id: messageId,
            kind: email.kind,
            sensitive,
            status: 'queued',
            attempts: 0,
            next_attempt_at: now,
          },
        })) as { id: number };
        onCommit(() => worker.kick());
        return row.id;
      });
    },
  };
};
