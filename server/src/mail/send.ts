import type { Core } from '@strapi/strapi';
import type { MailQueueService } from '../api/email-message/services/mail-queue';
import type { MailTemplate, RenderedMail } from './layout';
import emailChangeConfirm from './email-change-confirm';
import emailChangeNotice from './email-change-notice';
import goalReminder from './goal-reminder';
import ownerNotice from './owner-notice';
import passwordReset from './password-reset';
import refundReceipt from './refund-receipt';
import renewalReminder from './renewal-reminder';
import signInAlert from './sign-in-alert';

/** Every kind of e-mail the server writes; a new one is a module of this folder and a line here (docs/email.md). */
export const MAIL_TEMPLATES = {
  'password-reset': passwordReset,
  'email-change-confirm': emailChangeConfirm,
  'email-change-notice': emailChangeNotice,
  'sign-in-alert': signInAlert,
  'goal-reminder': goalReminder,
  'owner-notice': ownerNotice,
  'refund-receipt': refundReceipt,
  'renewal-reminder': renewalReminder,
} as const;

export type MailKind = keyof typeof MAIL_TEMPLATES;
export type MailData<K extends MailKind> = (typeof MAIL_TEMPLATES)[K] extends MailTemplate<infer Data> ? Data : never;

export function renderMail<K extends MailKind>(kind: K, data: MailData<K>): RenderedMail {
  return (MAIL_TEMPLATES[kind] as MailTemplate<MailData<K>>).render(data);
}

/**
 * The one way an e-mail leaves: rendered from its template and written to the durable mail queue,
 * in the caller's transaction when there is one (it commits with the change). Returns the row id.
 */
export function sendMail<K extends MailKind>(strapi: Core.Strapi, kind: K, to: string, data: MailData<K>): Promise<number> {
  const queue = strapi.service('api::email-message.mail-queue') as unknown as MailQueueService;
  return queue.enqueue({ kind: MAIL_TEMPLATES[kind].queue, to, ...renderMail(kind, data) });
}
