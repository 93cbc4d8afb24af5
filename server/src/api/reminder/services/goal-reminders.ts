import type { Core } from '@strapi/strapi';
import { UID } from '../../../content-types';
import { UNSUBSCRIBE_PATH, type UnitSystem, type WeightEntry } from '../../../contract/progress';
import { profileTabUrl, publicUrl } from '../../../public-url';
import { sendMail } from '../../../mail/send';
import { periodKey, type ReminderFrequency } from '../../../reminders/period';
import { signUnsubscribeToken, verifyUnsubscribeToken } from '../../../reminders/unsubscribe-token';
import type { WeightEntryService } from '../../weight-entry/services/weight-entry';

/** Members read per query. */
const PAGE_SIZE = 200;
/** Entries shown in the e-mail. */
const LATEST_ENTRIES = 5;
/** Claims older than this are of periods long over (a week is the longest): they are pruned. */
const CLAIM_RETENTION_MS = 8 * 24 * 60 * 60 * 1000;

interface MemberRow {
  id: number;
  username: string;
  email: string;
  goal_weight: number | string | null;
  goal_reminder: ReminderFrequency;
  unit_system: UnitSystem | null;
  bmi: { currentWeight: number | string | null } | null;
}

export interface ReminderRun {
  /** Members due a reminder (goal, reminders on, daily or weekly). */
  due: number;
  /** Claimed and queued (the mail queue delivers them). */
  sent: number;
  /** Already claimed in this period (by this or another instance). */
  alreadySent: number;
  /** Could not be queued (nothing written; the next run tries again). */
  failed: number;
}

export interface GoalReminderService {
  /** One run of the job: e-mails every member due a reminder in the period of `now`, at most once per period. */
  run(options?: { now?: Date }): Promise<ReminderRun>;
  unsubscribeUrl(userId: number): string;
  /** Turns the token's member's reminders off; false (and nothing changed) for a token that is not ours. */
  unsubscribe(token: unknown): Promise<boolean>;
  removeAll(userId: number): Promise<void>;
}

/** Goal reminder e-mails (issue 12); run by the cron job of config/server.ts (src/reminders/cron.ts). */
export default ({ strapi }: { strapi: Core.Strapi }): GoalReminderService => {
  const claims = () => strapi.db.query(UID.reminderSend);
  const appKeys = () => (strapi.config.get('server.app.keys') as string[] | undefined) ?? [];

  /**
   * Claims the member's reminder of the period and queues its e-mail, in one transaction: the unique
   * claim_key lets one insert succeed, whichever instance or run tries, and a claim never exists
   * without its e-mail (nor the reverse). True when this caller made the claim.
   */
  async function claimAndQueue(member: MemberRow, period: string, now: Date): Promise<boolean> {
    const key = `${member.id}:${period}`;
    try {
      await strapi.db.transaction(async () => {
        await claims().create({ data: { user: member.id, claim_key: key, period, claimed_at: now } });
        await queue(member);
      });
      return true;
    } catch (error) {
      // After the rollback: a claim that exists is another caller's.
      if (await claims().findOne({ where: { claim_key: key }, select: ['id'] })) return false;
      throw error;
    }
  }

  async function queue(member: MemberRow): Promise<void> {
    const entries = strapi.service('api::weight-entry.weight-entry') as unknown as WeightEntryService;
    const history = await entries.list(member.id);
    const latest: WeightEntry[] = history.slice(-LATEST_ENTRIES).reverse();
    const stored = member.bmi?.currentWeight;
    const currentWeight = stored != null && Number(stored) > 0 ? Number(stored) : (latest[0]?.weight ?? null);
    await sendMail(strapi, 'goal-reminder', member.email, {
      username: member.username,
      unit: member.unit_system === 'imperial' ? 'imperial' : 'metric',
      frequency: member.goal_reminder,
      currentWeight,
      goalWeight: Number(member.goal_weight),
      latest,
      profileUrl: profileTabUrl('goals'),
      unsubscribeUrl: service.unsubscribeUrl(member.id),
    });
  }

  const service: GoalReminderService = {
    async run({ now = new Date() } = {}) {
      const result: ReminderRun = { due: 0, sent: 0, alreadySent: 0, failed: 0 };
      await claims().deleteMany({ where: { claimed_at: { $lt: new Date(now.getTime() - CLAIM_RETENTION_MS) } } });

      for (let afterId = 0; ;) {
        const members = (await strapi.db.query(UID.user).findMany({
          where: {
            id: { $gt: afterId },
            goal_weight: { $gt: 0 },
            goal_reminder: { $in: ['daily', 'weekly'] },
            confirmed: true,
            // NULL: a member from before the field existed, whose default is on.
            $and: [{ $or: [{ reminders_enabled: true }, { reminders_enabled: null }] }, { $or: [{ blocked: false }, { blocked: null }] }],
          },
          select: ['id', 'username', 'email', 'goal_weight', 'goal_reminder', 'unit_system'],
          populate: { bmi: { select: ['currentWeight'] } },
          orderBy: { id: 'asc' },
          limit: PAGE_SIZE,
        })) as MemberRow[];
        if (members.length === 0) break;
        afterId = members[members.length - 1].id;

        for (const member of members) {
          result.due += 1;
          const period = periodKey(member.goal_reminder, now);
          try {
            if (await claimAndQueue(member, period, now)) result.sent += 1;
            else result.alreadySent += 1;
          } catch (error) {
            // Neither claim nor e-mail was written: the next run tries again.
            result.failed += 1;
            strapi.log.error(`[reminders] could not queue the goal reminder of user ${member.id}: ${String(error)}`);
          }
        }
      }
      if (result.sent > 0 || result.failed > 0) {
        strapi.log.info(`[reminders] goal reminders: ${result.sent} sent, ${result.alreadySent} already sent, ${result.failed} failed`);
      }
      return result;
    },

    unsubscribeUrl(userId) {
      return `${publicUrl()}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(signUnsubscribeToken(userId, appKeys()))}`;
    },

    async unsubscribe(token) {
      const userId = verifyUnsubscribeToken(token, appKeys());
      if (userId === null) return false;
      // A deleted account has nothing to turn off; the answer is the same.
      await strapi.db.query(UID.user).update({ where: { id: userId }, data: { reminders_enabled: false } });
      return true;
    },

    async removeAll(userId) {
      const rows = (await claims().findMany({ where: { user: { id: userId } }, select: ['id'] })) as { id: number }[];
      if (rows.length > 0) await claims().deleteMany({ where: { id: { $in: rows.map((row) => row.id) } } });
    },
  };
  return service;
};
