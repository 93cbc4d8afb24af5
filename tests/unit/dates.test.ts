import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDay, formatMonth } from '../../machines/rules/dates';

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('machines/rules/dates: one date format across the member area (issue 21)', () => {
  it("writes the month in words, in the member's locale", () => {
    expect(formatDate('2026-12-24T12:00:00.000Z', 'en-US')).toBe('December 24, 2026');
    expect(formatDate('2026-12-24T12:00:00.000Z', 'en-GB')).toBe('24 December 2026');
    expect(formatDay('2026-12-24', 'en-US')).toBe('December 24, 2026');
    expect(formatMonth(2030, 12, 'en-US')).toBe('December 2030');
    expect(formatMonth(2031, 3, 'en-GB')).toBe('March 2031');
    // No locale: the browser's, in the same style (never 12/24/2026).
    expect(formatDate('2026-12-24T12:00:00.000Z')).toBe(
      new Date('2026-12-24T12:00:00.000Z').toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' }),
    );
  });

  it('shows an instant on the day it falls on where the member is', () => {
    process.env.TZ = 'America/Los_Angeles';
    expect(formatDate('2026-12-25T03:00:00.000Z', 'en-US')).toBe('December 24, 2026');
    process.env.TZ = 'Asia/Tokyo';
    expect(formatDate('2026-12-24T20:00:00.000Z', 'en-US')).toBe('December 25, 2026');
  });

  it("gives the time of day too where it matters (signed-in devices, issue 28), in the member's zone", () => {
    process.env.TZ = 'America/Los_Angeles';
    expect(formatDateTime('2026-12-25T03:05:00.000Z', 'en-US')).toMatch(/^December 24, 2026(,| at) 7:05\sPM$/);
    process.env.TZ = 'Europe/London';
    expect(formatDateTime('2026-12-25T03:05:00.000Z', 'en-GB')).toMatch(/^25 December 2026(,| at) 0?3:05$/);
  });

  it('keeps a calendar day and a month the same in every time zone', () => {
    for (const tz of ['America/Los_Angeles', 'UTC', 'Pacific/Kiritimati']) {
      process.env.TZ = tz;
      expect(formatDay('2026-01-01', 'en-US'), tz).toBe('January 1, 2026');
      expect(formatDay('1990-05-01', 'en-US'), tz).toBe('May 1, 1990');
      expect(formatMonth(2030, 1, 'en-US'), tz).toBe('January 2030');
    }
  });
});
