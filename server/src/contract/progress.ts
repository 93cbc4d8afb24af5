import { check, custom, pipe, transform } from 'valibot';
import { isPlainObject, profileMessages, toNumber, weightSchema } from './profileRules';
import { firstError } from './schema';

/**
 * Progress (issue 12): the weight history, the member's unit system and goal reminder e-mails.
 * Weights are stored and sent in kg, heights in cm; imperial is a way of showing and typing them.
 */

export const UNIT_SYSTEMS = ['metric', 'imperial'] as const;
export type UnitSystem = (typeof UNIT_SYSTEMS)[number];

/** Exact conversion factors (international pound and inch). */
export const KG_PER_LB = 0.45359237;
export const CM_PER_INCH = 2.54;
export const INCHES_PER_FOOT = 12;

/** One entry of the member's weight history: a day (YYYY-MM-DD) and the weight that day, in kg. */
export type WeightEntry = { id: number; date: string; weight: number };

/** GET /api/weight-entries: the member's own entries, oldest first (the chart's order). */
export type WeightEntriesResponse = { data: WeightEntry[] };

/** POST /api/weight-entries: at most one entry a day; an entry for a day that has one replaces it. */
export type NewWeightEntry = { date: string; weight: number };
/** `replaced`: the day already had an entry, which now has this weight (same id). 201 when created, 200 when replaced. */
export type WeightEntryResponse = { data: WeightEntry; replaced: boolean };

export const WEIGHT_ENTRY_FIELDS = ['date', 'weight'] as const;

export const progressMessages = {
  entryNotAnObject: 'The entry must be a JSON object with date and weight',
  entryUnknownField: (keys: string[]) =>
    keys.length === 1 ? `Field "${keys[0]}" cannot be sent` : `Fields ${keys.map((key) => `"${key}"`).join(', ')} cannot be sent`,
  entryDate: 'Date must be a valid date (YYYY-MM-DD)',
  entryDateFuture: 'Date cannot be in the future',
  entryWeight: profileMessages.weightRange,
  entryNotFound: 'Weight entry not found',
  unsubscribeInvalid: 'This unsubscribe link is not valid. You can turn reminders off in your profile (Goals).',
  unsubscribed: 'You will no longer receive goal reminder e-mails. You can turn them back on in your profile (Goals).',
} as const;

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
/** The earliest date an entry may have. */
export const FIRST_ENTRY_DATE = '1900-01-01';
/** The latest time zone is UTC+14: no member's "today" is later than the UTC date 14 hours from now. */
const LATEST_ZONE_OFFSET_MS = 14 * 60 * 60 * 1000;

/** The UTC date of `now` as YYYY-MM-DD (the server's "today"). */
export const utcDate = (now: Date): string => now.toISOString().slice(0, 10);

/** The latest date that is "today" somewhere on earth: entries up to it are not in the future for some member. */
export const latestEntryDate = (now: Date): string => utcDate(new Date(now.getTime() + LATEST_ZONE_OFFSET_MS));

/** Whether `value` is a real calendar day written YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The first rule a new entry breaks (the form's check and the server's), or null. */
export function weightEntryError(entry: { date: string; weight: number }, now: Date = new Date()): string | null {
  if (!isCalendarDate(entry.date) || entry.date < FIRST_ENTRY_DATE) return progressMessages.entryDate;
  if (entry.date > latestEntryDate(now)) return progressMessages.entryDateFuture;
  // The profile's weight rule, whose message is entryWeight's.
  return firstError(weightSchema, entry.weight);
}

const unknownEntryFields = (body: Record<string, unknown>): string[] =>
  Object.keys(body).filter((key) => !(WEIGHT_ENTRY_FIELDS as readonly string[]).includes(key));

/**
 * POST /api/weight-entries' body: a JSON object with only date and weight (a number, or decimal text), read as
 * { date, weight } and held to the rules the form checks an entry by (weightEntryError), on `now`'s day.
 */
/* @__NO_SIDE_EFFECTS__ */
export function weightEntryBodySchema(now: Date = new Date()) {
  return pipe(
    custom<Record<string, unknown>>(isPlainObject, progressMessages.entryNotAnObject),
    check(
      (body) => unknownEntryFields(body).length === 0,
      (issue) => progressMessages.entryUnknownField(unknownEntryFields(issue.input)),
    ),
    transform((body): NewWeightEntry => ({
      date: typeof body.date === 'string' ? body.date.trim() : '',
      weight: toNumber(body.weight) ?? Number.NaN,
    })),
    check(
      (entry) => weightEntryError(entry, now) === null,
      (issue) => weightEntryError(issue.input, now) ?? '',
    ),
  );
}

/** kg to lb and back, and feet + inches to cm (exact factors; round only for display). */
export const kgToLb = (kg: number): number => kg / KG_PER_LB;
export const lbToKg = (lb: number): number => lb * KG_PER_LB;
export const feetInchesToCm = (feet: number, inches: number): number => (feet * INCHES_PER_FOOT + inches) * CM_PER_INCH;

/** A weight in kg as the member reads it: "72.5 kg" or "159.8 lb" (one decimal at most). */
export function formatWeight(kg: number, unit: UnitSystem): string {
  const value = unit === 'imperial' ? kgToLb(kg) : kg;
  return `${Math.round(value * 10) / 10} ${unit === 'imperial' ? 'lb' : 'kg'}`;
}

/** The unsubscribe route of the reminder e-mails (GET from the link; POST for one-click mail clients, RFC 8058). */
export const UNSUBSCRIBE_PATH = '/api/reminders/unsubscribe';
