import { describe, expect, it } from 'vitest';
import { signUpError } from '../../machines/signUp.machine';
import { signUpMessages } from '../../server/src/contract/auth';
import { usernameMessages } from '../../server/src/contract/fieldRules';
import { isValidEmail } from '../../server/src/contract/fieldRules';
import { safeReturnPath } from '../../machines/rules/returnPath';

describe('sign-up validation (SPEC §5)', () => {
  it.each([
    [{ username: '', email: 'a@b.co', password: 'x' }, signUpMessages.missingFields],
    [{ username: 'meat', email: '   ', password: 'x' }, signUpMessages.missingFields],
    [{ username: 'meat', email: 'a@b.co', password: '' }, signUpMessages.missingFields],
    [{ username: 'meat', email: 'a@b', password: 'x' }, signUpMessages.invalidEmail],
    [{ username: 'meat', email: 'a b@c.io', password: 'x' }, signUpMessages.invalidEmail],
    [{ username: ' me ', email: 'ribeye@example.com', password: 'x' }, usernameMessages.tooShort],
    [{ username: 'rib eye', email: 'ribeye@example.com', password: 'x' }, usernameMessages.invalidCharacters],
    [{ username: 'meat', email: 'ribeye@example.com', password: 'x' }, null],
  ])('%j gives %s', (fields, expected) => {
    expect(signUpError(fields)).toBe(expected);
  });

  it('uses the spec wording', () => {
    expect(signUpMessages.missingFields).toBe('Please fill in all required fields.');
    expect(signUpMessages.invalidEmail).toBe('Please enter a valid email address.');
  });

  it('accepts ordinary addresses and refuses malformed ones', () => {
    expect(isValidEmail('first.last+tag@sub.example.org')).toBe(true);
    expect(isValidEmail('@example.com')).toBe(false);
    expect(isValidEmail('user@@example.com')).toBe(false);
  });
});

describe('safeReturnPath', () => {
  it.each([
    ['/profile', '/profile'],
    ['/profile?tab=goals', '/profile?tab=goals'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example/', '/'],
    ['profile', '/'],
    ['/pro\nfile', '/'],
    [undefined, '/'],
    [42, '/'],
  ])('%j → %s', (candidate, expected) => {
    expect(safeReturnPath(candidate)).toBe(expected);
  });
});
