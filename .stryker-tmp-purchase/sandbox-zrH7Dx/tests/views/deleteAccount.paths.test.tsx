// @ts-nocheck
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOGIN_REDIRECT_DELAY_MS, LOGIN_TO_DELETE_NOTICE, deleteAccountMachine } from '../../machines/deleteAccount.machine';
import { deleteAccountPathTest } from '../support/deleteAccountPathTest';
import { definePathTests } from '../support/pathTests';

describe('deleteAccount: the spec model replayed against the Delete Account page', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('uses the spec delay and notice', () => {
    expect(LOGIN_REDIRECT_DELAY_MS).toBe(2000);
    expect(LOGIN_TO_DELETE_NOTICE).toBe('Please log in to proceed with account deletion');
  });

  definePathTests(deleteAccountPathTest(deleteAccountMachine));
});
