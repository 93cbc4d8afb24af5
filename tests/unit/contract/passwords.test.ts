import { describe, expect, it } from 'vitest';
import {
  changePasswordBody,
  forgotPasswordBody,
  forgotPasswordForm,
  passwordChangeForm,
  resetCodeError,
  resetPasswordBody,
  resetRequestError,
} from '../../../server/src/contract/passwords';
import { firstError, parseBody } from '../../../server/src/contract/schema';

/** The password schemas of the contract, read as the forms read them and as the server's routes do (no HTTP). */

describe('forgot-password', () => {
  it('the form asks for the address first, then checks it (SPEC §5 reset step 1)', () => {
    expect(resetRequestError('')).toBe('Please enter your email.');
    expect(resetRequestError('   ')).toBe('Please enter your email.');
    expect(resetRequestError('not-an-email')).toBe('Please enter a valid email address.');
    expect(resetRequestError(' Alice@Example.com ')).toBeNull();
    expect(firstError(forgotPasswordForm, { email: 'a@b' })).toBe('Please enter a valid email address.');
  });

  it('the route refuses anything but a valid address with the same words, and reads it trimmed and lower-cased', () => {
    for (const body of [undefined, null, 'text', {}, { email: '' }, { email: 42 }, { email: 'a@b' }]) {
      expect(parseBody(forgotPasswordBody, body), JSON.stringify(body)).toEqual({
        ok: false,
        message: 'Please enter a valid email address.',
      });
    }
    expect(parseBody(forgotPasswordBody, { email: '  Alice@Example.COM ' })).toEqual({ ok: true, value: { email: 'alice@example.com' } });
  });
});

describe('reset-password', () => {
  const fields = { code: 'abcde-12345', password: 'secret1', passwordConfirmation: 'secret1' };

  it('checks in the spec order: code, both passwords, match, length (SPEC §5 reset step 2)', () => {
    expect(resetCodeError({ ...fields, code: ' ' })).toBe('Please enter the reset code.');
    expect(resetCodeError({ ...fields, code: ' - ', password: '' })).toBe('Please enter the reset code.');
    expect(resetCodeError({ ...fields, passwordConfirmation: '' })).toBe('Please fill in both password fields.');
    expect(resetCodeError({ ...fields, passwordConfirmation: 'secret2' })).toBe('Passwords do not match.');
    expect(resetCodeError({ ...fields, password: 'short', passwordConfirmation: 'short' })).toBe(
      'Password should be at least 6 characters.',
    );
    expect(resetCodeError(fields)).toBeNull();
  });

  it('refuses a password bcrypt would cut (over 72 bytes, counted in UTF-8)', () => {
    const long = (password: string) => resetCodeError({ ...fields, password, passwordConfirmation: password });
    expect(long('a'.repeat(72))).toBeNull();
    expect(long('a'.repeat(73))).toBe('Password must be less than 73 bytes');
    expect(long('é'.repeat(36))).toBeNull();
    expect(long(`${'é'.repeat(36)}a`)).toBe('Password must be less than 73 bytes');
  });

  it('the route reads a body of any shape, and gives the code normalised (what is hashed)', () => {
    expect(parseBody(resetPasswordBody, null)).toEqual({ ok: false, message: 'Please enter the reset code.' });
    expect(parseBody(resetPasswordBody, { code: 7, password: 'secret1', passwordConfirmation: 'secret1' })).toEqual({
      ok: false,
      message: 'Please enter the reset code.',
    });
    expect(parseBody(resetPasswordBody, { password: 'secret1', passwordConfirmation: 'secret1' })).toEqual({
      ok: false,
      message: 'Please enter the reset code.',
    });
    expect(parseBody(resetPasswordBody, { code: 'abc', password: 'secret1' })).toEqual({
      ok: false,
      message: 'Please fill in both password fields.',
    });
    expect(parseBody(resetPasswordBody, { code: 'abc', password: 42, passwordConfirmation: 'secret1' })).toEqual({
      ok: false,
      message: 'Please fill in both password fields.',
    });
    expect(parseBody(resetPasswordBody, { ...fields, extra: true })).toEqual({
      ok: true,
      value: { code: 'ABCDE12345', password: 'secret1', passwordConfirmation: 'secret1' },
    });
  });
});

describe('change-password', () => {
  const fields = { currentPassword: 'old-one', password: 'secret1', passwordConfirmation: 'secret1' };

  it('the form: all three fields, then the match, then the length (SPEC §5 password change)', () => {
    expect(firstError(passwordChangeForm, { ...fields, currentPassword: '' })).toBe('All password fields are required');
    expect(firstError(passwordChangeForm, { ...fields, passwordConfirmation: 'secret2' })).toBe('New passwords do not match');
    expect(firstError(passwordChangeForm, { ...fields, password: 'short', passwordConfirmation: 'short' })).toBe(
      'New password must be at least 6 characters',
    );
    expect(firstError(passwordChangeForm, fields)).toBeNull();
  });

  it("the route checks only the new password's length, with the form's words", () => {
    expect(firstError(changePasswordBody, { password: 'short' })).toBe('New password must be at least 6 characters');
    expect(firstError(changePasswordBody, { password: 'secret1', passwordConfirmation: 'other' })).toBeNull();
  });
});
