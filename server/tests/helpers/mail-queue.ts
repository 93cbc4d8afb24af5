import type { Core } from '@strapi/strapi';
import type { MailQueueService } from '../../src/api/email-message/services/mail-queue';

export const mailQueueOf = (strapi: Core.Strapi) => strapi.service('api::email-message.mail-queue') as unknown as MailQueueService;

/**
 * Waits until the mail queue has delivered what is due (the worker runs after each commit; this also
 * drives it), so a test can read the outbox right after the action that queued mail.
 */
export async function settleMail(strapi: Core.Strapi, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await mailQueueOf(strapi).worker.drain();
    const busy = await strapi.db.query('api::email-message.email-message').count({
      where: { $or: [{ status: 'sending' }, { status: 'queued', next_attempt_at: { $lte: new Date() } }] },
    });
    if (busy === 0) return;
    if (Date.now() > deadline) throw new Error(`mail queue: ${busy} message(s) still due after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
