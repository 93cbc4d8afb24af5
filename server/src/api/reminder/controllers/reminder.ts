import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { progressMessages } from '../../../contract/progress';
import { publicUrl } from '../../../public-url';
import { unsubscribePage } from '../../../reminders/email';
import type { GoalReminderService } from '../services/goal-reminders';

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /** GET|POST /api/reminders/unsubscribe?token=...: reminders off for the token's member; a small HTML page either way. */
  async unsubscribe(ctx: Context) {
    const service = strapi.service('api::reminder.goal-reminders') as unknown as GoalReminderService;
    const done = await service.unsubscribe(ctx.query.token);
    ctx.status = done ? 200 : 400;
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = done
      ? unsubscribePage('Reminders turned off', progressMessages.unsubscribed, `${publicUrl()}/profile?tab=goals`)
      : unsubscribePage('Link not valid', progressMessages.unsubscribeInvalid, `${publicUrl()}/profile?tab=goals`);
  },
});
