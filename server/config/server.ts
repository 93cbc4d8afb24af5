import type { Core } from '@strapi/strapi';
import { goalReminderTasks, renewalReminderTasks } from '../src/reminders/cron';
import { logFormatName } from '../src/operations/log-format';

const config = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Server => ({
  host: env('HOST', '0.0.0.0'),
  port: env.int('PORT', 1337),
  // Public origin (e.g. https://carnivo.example); used for admin, OAuth callbacks and e-mail links.
  ...(env('PUBLIC_URL') ? { url: env('PUBLIC_URL') } : {}),
  // Behind a reverse proxy set TRUST_PROXY=true so rate limits see the client IP, not the proxy's.
  proxy: { koa: env.bool('TRUST_PROXY', false) },
  app: {
    keys: env.array('APP_KEYS')!,
  },
  // Strapi's public directory: local-disk uploads are written to and served from its uploads/
  // (docs/uploads.md). Default server/public; a shared disk mounted elsewhere,
  // or a test's own directory, can be named with PUBLIC_DIR (relative paths from server/).
  dirs: { public: env('PUBLIC_DIR', './public') },
  // No npm update check: the server must not phone home. No start-up banner (a console table) among JSON log lines.
  logger: { updates: { enabled: false }, startup: { enabled: logFormatName(process.env) !== 'json' } },
  // Goal reminder e-mails (GOAL_REMINDER_CRON, default hourly; docs/email.md) and the reminders before a
  // yearly renewal (RENEWAL_REMINDER_CRON and RENEWAL_REMINDER_DAYS; docs/payments.md).
  cron: { enabled: true, tasks: { ...goalReminderTasks(process.env), ...renewalReminderTasks(process.env) } },
  webhooks: {
    populateRelations: env.bool('WEBHOOKS_POPULATE_RELATIONS', false),
  },
});

export default config;
