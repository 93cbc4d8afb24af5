import type { Core } from '@strapi/strapi';
import { UID } from '../content-types';
import { publicUrl } from '../public-url';
import { summarizeUserAgent, type DeviceSummary } from '../security/user-agent';
import type { OwnerEvent } from './owner-notice';
import { sendMail } from './send';

/** The account told: its id (read when the notice is queued), or the address and name of one already gone. */
export type Owner = number | { email: string; username: string | null };

interface RequestLike {
  request?: { headers?: Record<string, string | string[] | undefined> };
}

/** The device of the request being answered, as the signed-in devices list names it (no request: unknown). */
export function requestDevice(strapi: Core.Strapi): DeviceSummary {
  const agent = (strapi.requestContext.get() as RequestLike | undefined)?.request?.headers?.['user-agent'];
  return summarizeUserAgent(typeof agent === 'string' ? agent : undefined);
}

/**
 * Tells the account's owner what just happened to it (docs/email.md#owner-notices): when, from which
 * device (the request's User-Agent, as the signed-in devices list names it) and what to do if it was
 * not them. Queued after the change commits (at once outside a transaction, on commit inside one;
 * nothing on a rollback). A failure to queue is logged: it never undoes or fails the change.
 */
export async function notifyOwner(strapi: Core.Strapi, owner: Owner, event: OwnerEvent, detail?: string): Promise<void> {
  const at = new Date();
  const device = requestDevice(strapi);

  const queue = async () => {
    const member =
      typeof owner === 'number'
        ? ((await strapi.db.query(UID.user).findOne({ where: { id: owner }, select: ['email', 'username'] })) as {
            email: string | null;
            username: string | null;
          } | null)
        : owner;
    if (!member?.email) return;
    const site = publicUrl();
    await sendMail(strapi, 'owner-notice', member.email, {
      username: member.username,
      event,
      detail: detail ?? null,
      at,
      device,
      resetUrl: `${site}/reset-password`,
      securityUrl: `${site}/profile?tab=security`,
      contactUrl: `${site}/contact`,
    });
  };
  await queueBestEffort(strapi, `the "${event}" notice`, queue);
}

/**
 * Queues a courtesy e-mail (an owner notice, a sign-in alert, the notice to an address being changed
 * away from) after the change commits: at once outside a transaction, on commit inside one, nothing on
 * a rollback. A failure (the queue unreachable, a stored address the mail rule now refuses) is logged:
 * it never undoes or fails the change, nor locks the member out.
 */
export async function queueBestEffort(strapi: Core.Strapi, what: string, queue: () => Promise<unknown>): Promise<void> {
  const queueSafely = () =>
    queue().then(
      () => undefined,
      (error: unknown) => strapi.log.error(`[mail] could not queue ${what}: ${error instanceof Error ? error.message : String(error)}`),
    );
  if (strapi.db.inTransaction()) {
    await strapi.db.transaction(async ({ onCommit }) => onCommit(() => void queueSafely()));
    return;
  }
  await queueSafely();
}
