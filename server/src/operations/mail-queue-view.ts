import type { Core } from '@strapi/strapi';
import { EMAIL_TABLE, type EmailStatus } from '../api/email-message/services/mail-queue';

/**
 * The operators' view of the mail queue (npm run mail:queue, mail:retry; docs/operations.md#mail-queue):
 * status, attempts, last error and the recipient's domain, never a body nor a whole address. The
 * admin panel shows none of it (docs/security.md#the-admin-panel); a retry sends again exactly what
 * was queued.
 */

export interface QueueLine {
  id: number;
  kind: string;
  status: EmailStatus;
  attempts: number;
  domain: string;
  createdAt: string | null;
  nextAttemptAt: string | null;
  sentAt: string | null;
  lastError: string | null;
}

const iso = (value: unknown): string | null => (value === null || value === undefined ? null : new Date(value as string).toISOString());

/** An address in an SMTP error ("550 <ann@example.com> unknown") keeps only its domain. */
export const withoutLocalParts = (text: string): string => text.replace(/[^\s<>@,;:"'()[\]]+@([^\s<>@,;:"'()[\]]+)/g, '…@$1');

export const domainOf = (address: string): string => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

export async function listQueue(strapi: Core.Strapi, options: { status?: EmailStatus; limit?: number } = {}): Promise<QueueLine[]> {
  let query = strapi.db
    .getConnection(EMAIL_TABLE)
    .select('id', 'kind', 'status', 'attempts', 'to', 'created_at', 'next_attempt_at', 'sent_at', 'last_error')
    .orderBy('id', 'desc')
    .limit(options.limit ?? 50);
  if (options.status) query = query.where('status', options.status);
  const rows = (await query) as Record<string, unknown>[];
  return rows.map((row) => ({
    id: Number(row.id),
    kind: String(row.kind),
    status: row.status as EmailStatus,
    attempts: Number(row.attempts),
    domain: domainOf(String(row.to)),
    createdAt: iso(row.created_at),
    nextAttemptAt: iso(row.next_attempt_at),
    sentAt: iso(row.sent_at),
    lastError: typeof row.last_error === 'string' ? withoutLocalParts(row.last_error) : null,
  }));
}

export function formatQueue(lines: QueueLine[]): string {
  if (lines.length === 0) return 'The mail queue holds no message (of that status).';
  return lines
    .map((line) =>
      [
        `#${line.id}`,
        line.status,
        line.kind,
        `to @${line.domain}`,
        `attempts ${line.attempts}`,
        line.sentAt ? `sent ${line.sentAt}` : line.status === 'queued' ? `next ${line.nextAttemptAt ?? 'now'}` : `queued ${line.createdAt}`,
        ...(line.lastError ? [`last error: ${line.lastError}`] : []),
      ].join('  '),
    )
    .join('\n');
}

export class RetryRefused extends Error {}

/**
 * Puts a failed message back in the queue as it was written (nothing of it can be changed here):
 * attempts from 0, due now. A message that held a secret had its body wiped when it failed: it
 * cannot be sent again, the member asks anew (a new reset code, a new link).
 */
export async function retryMessage(strapi: Core.Strapi, id: number): Promise<void> {
  const table = () => strapi.db.getConnection(EMAIL_TABLE);
  const row = (await table().select('status', 'text', 'html').where('id', id).first()) as
    | { status: EmailStatus; text: string | null; html: string | null }
    | undefined;
  if (!row) throw new RetryRefused(`There is no message #${id}.`);
  if (row.status !== 'failed') throw new RetryRefused(`Message #${id} is ${row.status}: only a failed message is retried.`);
  if (row.text === null && row.html === null) {
    throw new RetryRefused(
      `Message #${id} held a secret (a code or a link), wiped when it failed: it cannot be sent again. The member asks for a new one.`,
    );
  }
  const now = new Date();
  const count = await table()
    .where({ id, status: 'failed' })
    .update({ status: 'queued', attempts: 0, next_attempt_at: now, claimed_by: null, claimed_until: null, updated_at: now });
  if (count !== 1) throw new RetryRefused(`Message #${id} changed meanwhile: look again (npm run mail:queue).`);
}
