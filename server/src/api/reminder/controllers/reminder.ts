import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Context } from 'koa';
import { progressMessages } from '../../../contract/progress';
import { unsubscribePage } from '../../../reminders/unsubscribe-page';
import { siteStylesheets } from '../../../site-page';
import type { GoalReminderService } from '../services/goal-reminders';

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /**
   * GET|POST /api/reminders/unsubscribe?token=...: reminders off for the token's member. A browser
   * (the e-mail's link) gets a small HTML page; any other client (a mail client's one-click POST)
   * gets JSON: `{ ok: true }`, or Strapi's 400 error with the message.
   */
  async unsubscribe(ctx: Context) {
    const service = strapi.service('api::reminder.goal-reminders') as unknown as GoalReminderService;
    const done = await service.unsubscribe(ctx.query.token);
    ctx.set('Cache-Control', 'no-store');
    if (ctx.accepts('json', 'html') !== 'html') {
      if (!done) throw new errors.ValidationError(progressMessages.unsubscribeInvalid);
      ctx.body = { ok: true };
      return;
    }
    const profile = '/profile?tab=goals';
    const stylesheets = await siteStylesheets(strapi);
    ctx.status = done ? 200 : 400;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = done
      ? unsubscribePage('Reminders turned off', progressMessages.unsubscribed, profile, stylesheets)
      : unsubscribePage('Link not valid', progressMessages.unsubscribeInvalid, profile, stylesheets);
  },
});
