import { describe, expect, it } from 'vitest';
import { MONEY_BACK_DAYS, firstPayment, refundableUntil } from '../../../server/src/contract/subscriptions';

const DAY_MS = 24 * 60 * 60 * 1000;
const paidAt = Date.parse('2026-11-01T09:30:00.000Z');
const invoice = (at: number, status = 'paid', amount = 999) => ({ date: new Date(at).toISOString(), status, amount });

describe('the money-back guarantee window (Refund Policy §1, issue 30)', () => {
  it('is the 30 days the site promises', () => {
    expect(MONEY_BACK_DAYS).toBe(30);
  });

  it('runs until 30 days after the first payment, and not a millisecond more', () => {
    const until = new Date(paidAt + 30 * DAY_MS).toISOString();
    expect(refundableUntil([invoice(paidAt)], paidAt)).toBe(until);
    expect(refundableUntil([invoice(paidAt)], paidAt + 30 * DAY_MS - 1)).toBe(until);
    expect(refundableUntil([invoice(paidAt)], paidAt + 30 * DAY_MS)).toBeNull();
  });

  it('counts from the oldest paid invoice, in whatever order they come', () => {
    const renewal = paidAt + 20 * DAY_MS;
    expect(refundableUntil([invoice(renewal), invoice(paidAt)], paidAt + 25 * DAY_MS)).toBe(new Date(paidAt + 30 * DAY_MS).toISOString());
    expect(refundableUntil([invoice(renewal), invoice(paidAt)], paidAt + 31 * DAY_MS)).toBeNull();
  });

  it('counts from when the payment was made, when the provider says, not when the invoice was issued', () => {
    const issued = { ...invoice(paidAt), paidAt: new Date(paidAt + 20 * 60 * 60 * 1000).toISOString() };
    expect(refundableUntil([issued], paidAt)).toBe(new Date(paidAt + 30 * DAY_MS + 20 * 60 * 60 * 1000).toISOString());
    expect(firstPayment([invoice(paidAt + DAY_MS), issued])).toBe(issued);
  });

  it('ignores a payment of nothing (a free first invoice)', () => {
    const free = invoice(paidAt - DAY_MS, 'paid', 0);
    expect(firstPayment([free, invoice(paidAt)])?.amount).toBe(999);
    expect(refundableUntil([free], paidAt)).toBeNull();
  });

  it('ignores invoices never paid, and is null with none paid', () => {
    const older = paidAt - 10 * DAY_MS;
    for (const status of ['open', 'void', 'uncollectible', 'draft']) {
      expect(refundableUntil([invoice(paidAt), invoice(older, status)], paidAt)).toBe(new Date(paidAt + 30 * DAY_MS).toISOString());
      expect(refundableUntil([invoice(older, status)], older)).toBeNull();
    }
    expect(refundableUntil([], paidAt)).toBeNull();
  });
});
