import type { Core } from '@strapi/strapi';
import { UID } from '../../../content-types';
import { publicUrl } from '../../../public-url';
import { createLimiter } from '../../../security/limits';
import type { AccountExport } from '../../../contract/billing';
import { subscriptionService } from '../../subscription/services/subscription';

/** Exports a member may download per hour (issue 11), counted across instances (Redis when configured). */
export const EXPORTS_PER_HOUR = 5;

interface UserRow {
  id: number;
  username: string;
  email: string;
  provider: string | null;
  confirmed: boolean | null;
  createdAt: string | Date;
  updatedAt: string | Date;
  diet_preference: string | null;
  goal_weight: number | string | null;
  goal_reminder: string | null;
  personal_goal_note: string | null;
  unit_system: 'metric' | 'imperial' | null;
  reminders_enabled: boolean | null;
  bmi: {
    height: number | string | null;
    currentWeight: number | string | null;
    Gender: 'Male' | 'Female' | null;
    date_of_birth: string | Date | null;
    idealBmiWeight: string | null;
  } | null;
  ingredients: { ingredient_name: string }[] | null;
  profile_picture: { url: string } | null;
}

// PostgreSQL hands decimals back as strings.
const num = (value: number | string | null | undefined) => (value == null || value === '' ? null : Number(value));
const iso = (value: string | Date) => new Date(value).toISOString();
const dateOnly = (value: string | Date | null) => (value == null ? null : value instanceof Date ? value.toISOString().slice(0, 10) : value);

/** GET /api/account/export: everything held about a member (GDPR art. 15 and 20), their own only. */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const limiter = createLimiter('account-exports', { points: EXPORTS_PER_HOUR, durationSec: 60 * 60 });

  return {
    /** Counts one export of the member; answers whether it may go ahead, and when to retry. */
    consume: (userId: number) => limiter.consume(`user:${userId}`),

    async build(userId: number): Promise<AccountExport | null> {
      // Named fields only: the password hash, reset and confirmation tokens are never read.
      const user = (await strapi.db.query(UID.user).findOne({
        where: { id: userId },
        select: [
          'id',
          'username',
          'email',
          'provider',
          'confirmed',
          'createdAt',
          'updatedAt',
          'diet_preference',
          'goal_weight',
          'goal_reminder',
          'personal_goal_note',
          'unit_system',
          'reminders_enabled',
        ],
        populate: {
          bmi: { select: ['height', 'currentWeight', 'Gender', 'date_of_birth', 'idealBmiWeight'] },
          ingredients: { select: ['ingredient_name'], orderBy: { ingredient_name: 'asc' } },
          profile_picture: { select: ['url'] },
        },
      })) as UserRow | null;
      if (!user) return null;

      const picture = user.profile_picture?.url ?? null;
      const billing = await subscriptionService(strapi).exportFor(userId);
      const weightEntries = await strapi.service(UID.weightEntry).list(userId);
      const reminderSends = (await strapi.db.query(UID.reminderSend).findMany({
        where: { user: { id: userId } },
        select: ['period', 'claimed_at'],
        orderBy: { claimed_at: 'asc' },
      })) as { period: string; claimed_at: string | Date }[];
      return {
        exportedAt: new Date().toISOString(),
        account: {
          id: user.id,
          username: user.username,
          email: user.email,
          provider: user.provider ?? 'local',
          confirmed: Boolean(user.confirmed),
          createdAt: iso(user.createdAt),
          updatedAt: iso(user.updatedAt),
        },
        profile: {
          bmi: user.bmi
            ? {
                height: num(user.bmi.height),
                currentWeight: num(user.bmi.currentWeight),
                Gender: user.bmi.Gender ?? null,
                date_of_birth: dateOnly(user.bmi.date_of_birth),
                idealBmiWeight: user.bmi.idealBmiWeight ?? null,
              }
            : null,
          diet_preference: user.diet_preference ?? null,
          interests: (user.ingredients ?? []).map((ingredient) => ingredient.ingredient_name),
          goal_weight: num(user.goal_weight),
          goal_reminder: user.goal_reminder ?? null,
          personal_goal_note: user.personal_goal_note ?? null,
          unit_system: user.unit_system ?? 'metric',
          reminders_enabled: user.reminders_enabled ?? true,
          // Local uploads are stored as /uploads/...; S3 ones are already absolute.
          pictureUrl: picture == null ? null : /^https?:\/\//i.test(picture) ? picture : `${publicUrl()}${picture}`,
        },
        ...billing,
        weightEntries,
        goalReminders: reminderSends.map((send) => ({ period: send.period, sentAt: iso(send.claimed_at) })),
      };
    },
  };
};
