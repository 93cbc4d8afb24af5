import type { Core } from '@strapi/strapi';
import { extendOnce } from '../extend-once';
import { EMAIL_KINDS, mailKindContext, type MailQueueService } from '../../api/email-message/services/mail-queue';

type EmailServiceFactory = (deps: { strapi: Core.Strapi }) => Record<string, unknown>;

interface SendOptions {
  to?: unknown;
  subject?: unknown;
  text?: unknown;
  html?: unknown;
  from?: unknown;
  replyTo?: unknown;
  headers?: unknown;
  kind?: unknown;
}

const optionalString = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

const stringHeaders = (value: unknown): Record<string, string> | undefined => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
};

/**
 * email plugin, customised: `send` queues the message (api::email-message.mail-queue) instead of
 * handing it to the provider, so every caller (users-permissions' confirmation mail, the admin
 * panel's test e-mail) gets the queue's retries and joins the caller's transaction. The worker
 * delivers through the provider itself. `sendTemplatedEmail` (the admin panel's own password
 * reset) still goes straight to the provider.
 */
export default (plugin: { services: Record<string, EmailServiceFactory>; [key: string]: unknown }) => {
  plugin.services.email = extendOnce(plugin.services.email, (createEmailService) => ({ strapi }) => ({
    ...createEmailService({ strapi }),
    async send(options: SendOptions) {
      const queue = strapi.service('api::email-message.mail-queue') as unknown as MailQueueService;
      const kind = EMAIL_KINDS.find((known) => known === options.kind) ?? mailKindContext.getStore() ?? 'other';
      if (typeof options.to !== 'string') throw new Error('email: "to" must be one e-mail address');
      await queue.enqueue({
        kind,
        to: options.to,
        subject: typeof options.subject === 'string' ? options.subject : '',
        text: optionalString(options.text),
        html: optionalString(options.html),
        from: optionalString(options.from),
        replyTo: optionalString(options.replyTo),
        headers: stringHeaders(options.headers),
      });
    },
  }));
  return plugin;
};
