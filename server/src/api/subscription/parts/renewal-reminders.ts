import type { Core } from '@strapi/strapi';
import { UID } from '../../../content-types';
import { sendMail } from '../../../mail/send';
import { profileTabUrl } from '../../../public-url';
import { renewalReminderDays } from '../../../reminders/cron';
import type { SubscriptionRecord, SubscriptionRecords } from './records';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Subscriptions read per query. */
const PAGE_SIZE = 200;

export interface RenewalReminderRun {
  /** Yearly subscriptions renewing within the window. */
  due: number;
  /** Claimed and queued. */
  sent: number;
  /** Already reminded of this renewal (by this or another instance). */
  alreadySent: number;
  /** Could not be queued (nothing written; the next run tries again). */
  failed: number;
}

export interface RenewalReminders {
  /**
   * One run of the job (issue 30 item 5): e-mails every member whose yearly plan renews within `days`
   * of `now` (the gateway's clock) and is not set to cancel, once per renewal, whatever the number of
   * runs or instances.
   */
  remindRenewals(options?: { now?: Date; days?: number }): Promise<RenewalReminderRun>;
}

/** A plan that renews: paid up and not set to cancel. */
const STILL_RENEWING = { status: { $in: ['active', 'trialing'] }, cancel_at_period_end: false } as const;

type DueRecord = SubscriptionRecord & { user: { id: number; username: string; email: string } | null };

export function renewalReminders(strapi: Core.Strapi, records: SubscriptionRecords): RenewalReminders {
  const subs = () => strapi.db.query(UID.subscription);

  /**
   * Marks the renewal reminded and queues its e-mail, in one transaction: the conditional update lets
   * one caller through (a row reminded of an earlier renewal, or never), and the mark never exists
   * without its e-mail, nor the reverse. True when this caller made the mark.
   */
  async function claimAndQueue(record: DueRecord, renewsAt: Date, now: Date): Promise<boolean> {
    return strapi.db.transaction(async () => {
      const { count } = await subs().updateMany({
        where: {
          id: record.id,
          // Still due as it was read (a cancel or a refund meanwhile ends it), and not reminded of a renewal still
          // ahead: a renewal reminded of counts until it has passed, whatever small shift its date takes.
          ...STILL_RENEWING,
          currentPeriodEnd: { $gt: now },
          $or: [{ renewal_reminded_for: { $null: true } }, { renewal_reminded_for: { $lte: now } }],
        },
        data: { renewal_reminded_for: renewsAt },
      });
      if (count === 0) return false;
      await sendMail(strapi, 'renewal-reminder', record.user!.email, {
        username: record.user!.username,
        plan: record.plan!.name,
        amount: record.plan!.amount,
        currency: record.plan!.currency,
        renewsAt,
        subscriptionsUrl: profileTabUrl('subscriptions'),
      });
      return true;
    });
  }

  return {
    async remindRenewals({ now = records.gateway().now(), days = renewalReminderDays() } = {}) {
      const result: RenewalReminderRun = { due: 0, sent: 0, alreadySent: 0, failed: 0 };
      const until = new Date(now.getTime() + days * DAY_MS);
      for (let afterId = 0; ;) {
        const due = (await subs().findMany({
          where: {
            id: { $gt: afterId },
            ...STILL_RENEWING,
            currentPeriodEnd: { $gt: now, $lte: until },
            plan: { duration: 'year' },
          },
          populate: { plan: true, user: { select: ['id', 'username', 'email'] } },
          orderBy: { id: 'asc' },
          limit: PAGE_SIZE,
        })) as DueRecord[];
        if (due.length === 0) break;
        afterId = due[due.length - 1].id;

        for (const record of due) {
          if (!record.user || !record.plan || !record.currentPeriodEnd) continue;
          result.due += 1;
          try {
            if (await claimAndQueue(record, new Date(record.currentPeriodEnd), now)) result.sent += 1;
            else result.alreadySent += 1;
          } catch (error) {
            result.failed += 1;
            strapi.log.error(`[reminders] could not queue the renewal reminder of subscription ${record.id}: ${String(error)}`);
          }
        }
      }
      if (result.sent > 0 || result.failed > 0) {
        strapi.log.info(`[reminders] renewal reminders: ${result.sent} sent, ${result.alreadySent} already sent, ${result.failed} failed`);
      }
      return result;
    },
  };
}
