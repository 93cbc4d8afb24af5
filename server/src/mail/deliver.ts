import type { Core } from '@strapi/strapi';

/** One queued message as the mail queue's worker hands it over. */
export interface OutgoingMail {
  to: string;
  from?: string;
  replyTo?: string;
  subject: string;
  text?: string;
  html?: string;
  headers?: Record<string, string>;
  messageId: string;
}

/**
 * Hands one queued message to the configured e-mail provider (SMTP, or the local outbox): the worker of
 * the durable queue (api::email-message.mail-queue) is its only caller, and this the only use of the
 * e-mail plugin outside its own extension (src/extensions/email), which queues rather than sends.
 */
export async function deliverToProvider(strapi: Core.Strapi, mail: OutgoingMail): Promise<void> {
  await strapi.plugin('email').provider.send(mail);
}
