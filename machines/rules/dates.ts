/**
 * Issue 21: the member area writes every date one way, in the member's own locale with the month in
 * words ("December 24, 2026" in US English, "24 December 2026" in British English). The spec gives no
 * format for the member area's dates; its one written date, 'Last Updated: May 16, 2025', is this style.
 * `locale` is for tests; the app leaves it to the browser.
 */
const LONG_DATE = { year: 'numeric', month: 'long', day: 'numeric' } as const;

/** An instant (ISO 8601 timestamp, e.g. a period's end) as the day it falls on where the member is. */
export function formatDate(iso: string, locale?: string): string {
  return new Date(iso).toLocaleDateString(locale, LONG_DATE);
}

/** An instant with its time of day where the member is ("December 24, 2026 at 9:05 PM"): when a device was last used. */
export function formatDateTime(iso: string, locale?: string): string {
  return new Date(iso).toLocaleString(locale, { ...LONG_DATE, hour: 'numeric', minute: '2-digit' });
}

/** A calendar day (YYYY-MM-DD: a date of birth, a weight entry's day), the same day in every time zone. */
export function formatDay(day: string, locale?: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString(locale, { ...LONG_DATE, timeZone: 'UTC' });
}

/** A month of a year (1-12; e.g. a card's expiry) in the same style: "December 2030". */
export function formatMonth(year: number, month: number, locale?: string): string {
  return new Date(Date.UTC(year, month - 1, 1)).toLocaleDateString(locale, { year: 'numeric', month: 'long', timeZone: 'UTC' });
}
