import { describe, expect, it } from 'vitest';
import { EMAIL_MAX_LENGTH, isValidEmail } from '../../server/src/contract/fieldRules';
import { GOOD_ADDRESSES, HOSTILE_ADDRESSES } from '../../server/tests/helpers/addresses';

describe('the one e-mail address rule (forms, routes and the mail queue)', () => {
  it.each(HOSTILE_ADDRESSES.map((address) => [JSON.stringify(address), address]))('refuses %s', (_shown, address) => {
    expect(isValidEmail(address)).toBe(false);
  });

  it.each(GOOD_ADDRESSES.map((address) => [address]))('takes %s', (address) => {
    expect(isValidEmail(address)).toBe(true);
    // As typed into a form: the surrounding spaces are trimmed before the rule (and before saving).
    expect(isValidEmail(`  ${address} `)).toBe(true);
  });

  it(`takes ${EMAIL_MAX_LENGTH} characters and not one more`, () => {
    const longest = `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(EMAIL_MAX_LENGTH - 2 - 3 * 64 - 4)}.com`;
    expect(longest).toHaveLength(EMAIL_MAX_LENGTH);
    expect(isValidEmail(longest)).toBe(true);
    expect(isValidEmail(`a${longest}`)).toBe(false);
  });
});
