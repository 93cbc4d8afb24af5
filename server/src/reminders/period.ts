import { utcDate } from '../contract/progress';

export type ReminderFrequency = 'daily' | 'weekly';

/** The ISO 8601 week of a UTC day, e.g. 2024-W01 (weeks start on Monday; week 1 holds the first Thursday). */
export function isoWeek(now: Date): string {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  // The Thursday of this week decides the year the week belongs to.
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** The period a reminder belongs to (UTC): one a day, or one an ISO week. */
export const periodKey = (frequency: ReminderFrequency, now: Date): string =>
  frequency === 'daily' ? `daily:${utcDate(now)}` : `weekly:${isoWeek(now)}`;
