import { describe, expect, it } from 'vitest';
import { SANDBOX_CARDS, SANDBOX_PAYING_CARDS, sandboxCardBody, sandboxCardMessages } from '../../../server/src/contract/sandboxCard';
import { parseBody } from '../../../server/src/contract/schema';

/** The card fields of the offline payment sandbox, as its routes read them (no HTTP). */

const NOW = new Date('2026-01-15T12:00:00.000Z');
const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 30', cvc: ' 123 ' };
const says = (card: unknown, now = NOW) => {
  const parsed = parseBody(sandboxCardBody(now), card);
  return parsed.ok ? null : parsed.message;
};

describe('sandbox card fields', () => {
  it('takes each test number, and normalises what is saved', () => {
    for (const number of [...SANDBOX_PAYING_CARDS.keys(), SANDBOX_CARDS.declined]) expect(says({ ...CARD, cardNumber: number })).toBeNull();
    expect(parseBody(sandboxCardBody(NOW), { ...CARD, cardNumber: '5555-5555-5555-4444', clientSecret: 'pi_x' })).toEqual({
      ok: true,
      value: { cardNumber: '5555555555554444', expiry: '12/30', cvc: '123' },
    });
  });

  it('checks in Stripe order: number, expiry, month, past, CVC', () => {
    expect(says({ cardNumber: '4111111111111111', expiry: 'x', cvc: '' })).toBe(sandboxCardMessages.incorrect_number);
    expect(says({ ...CARD, expiry: '1230', cvc: '' })).toBe(sandboxCardMessages.incomplete_expiry);
    expect(says({ ...CARD, expiry: '13/30', cvc: '' })).toBe(sandboxCardMessages.invalid_expiry_month);
    expect(says({ ...CARD, expiry: '00/30' })).toBe(sandboxCardMessages.invalid_expiry_month);
    expect(says({ ...CARD, expiry: '12/25', cvc: '' })).toBe(sandboxCardMessages.expired_card);
    expect(says({ ...CARD, cvc: '12' })).toBe(sandboxCardMessages.incomplete_cvc);
    expect(says({ ...CARD, cvc: '12345' })).toBe(sandboxCardMessages.incomplete_cvc);
  });

  it('refuses a field left out or not text with its own message', () => {
    expect(says(undefined)).toBe(sandboxCardMessages.incorrect_number);
    expect(says({})).toBe(sandboxCardMessages.incorrect_number);
    expect(says({ cardNumber: CARD.cardNumber })).toBe(sandboxCardMessages.incomplete_expiry);
    expect(says({ cardNumber: CARD.cardNumber, expiry: CARD.expiry })).toBe(sandboxCardMessages.incomplete_cvc);
    expect(says({ ...CARD, cvc: 123 })).toBe(sandboxCardMessages.incomplete_cvc);
  });

  it('a card is valid through the last day of its expiry month', () => {
    expect(says({ ...CARD, expiry: '01/26' })).toBeNull();
    expect(says({ ...CARD, expiry: '01/26' }, new Date('2026-02-01T00:00:00.000Z'))).toBe(sandboxCardMessages.expired_card);
  });
});
