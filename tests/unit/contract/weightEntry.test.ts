import { describe, expect, it } from 'vitest';
import { progressMessages, weightEntryBodySchema } from '../../../server/src/contract/progress';
import { parseBody } from '../../../server/src/contract/schema';

const now = new Date('2025-06-01T12:00:00Z');
const read = (body: unknown) => parseBody(weightEntryBodySchema(now), body);

describe('POST /api/weight-entries: its body schema (server/src/contract/progress.ts)', () => {
  it('reads the date (trimmed) and the weight (a number, or decimal text)', () => {
    expect(read({ date: ' 2025-05-31 ', weight: '72.5' })).toEqual({ ok: true, value: { date: '2025-05-31', weight: 72.5 } });
    expect(read({ date: '2025-06-02', weight: 80 })).toEqual({ ok: true, value: { date: '2025-06-02', weight: 80 } });
  });

  it('refuses anything but a JSON object, then unknown fields by name, then the rules in the form’s order', () => {
    for (const body of [null, [], 'text', 7]) expect(read(body)).toEqual({ ok: false, message: progressMessages.entryNotAnObject });
    expect(read({ date: '2025-05-31', weight: 80, user: 2 })).toEqual({ ok: false, message: 'Field "user" cannot be sent' });
    expect(read({ id: 1, user: 2, weight: 900 })).toEqual({ ok: false, message: 'Fields "id", "user" cannot be sent' });
    expect(read({ date: '2025-02-30', weight: 900 })).toEqual({ ok: false, message: progressMessages.entryDate });
    // UTC+14's today is the latest day; the day after is in the future everywhere.
    expect(read({ date: '2025-06-03', weight: 80 })).toEqual({ ok: false, message: progressMessages.entryDateFuture });
    expect(read({ date: '2025-05-31', weight: '72,5' })).toEqual({ ok: false, message: progressMessages.entryWeight });
  });
});
