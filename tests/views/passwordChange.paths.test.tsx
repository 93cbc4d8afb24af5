import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { fromPromise } from 'xstate';
import { authMessages } from '../../machines/authSession.machine';
import { passwordChangeMachine } from '../../machines/passwordChange.machine';
import { ApiError } from '../../machines/services/errors';
import type { ChangePasswordPayload } from '../../server/src/contract/auth';
import { SESSION_KEYS } from '../../machines/services/session';
import { passwordChangeModel } from '../models/passwordChange.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { noticeShownFor, seeAlert, seeButton, seeNotice, shownFor } from '../support/pathSteps';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';
import { settle } from '../support/settle';
import { SUCCESS_NOTICE_MS } from '../../machines/shared/notice';

const CHANGED = 'Password changed successfully!';
const RENEWED_TOKEN = 'jwt-after-change';
const SERVER_REFUSAL = 'The provided current password is invalid';
const FIELDS = ['Current Password', 'New Password', 'Confirm New Password'];
/** SPEC §5: what each invalid submission says. */
const invalidSubmissions = {
  'change.submittedBlankCurrent': { fields: ['', 'newpass1', 'newpass1'], message: 'All password fields are required' },
  'change.submittedMismatch': { fields: ['oldpass1', 'newpass1', 'newpass2'], message: 'New passwords do not match' },
  'change.submittedShort': { fields: ['oldpass1', 'short', 'short'], message: 'New password must be at least 6 characters' },
};

function openProfile(inspect?: Inspect) {
  const changes = deferredCalls<ChangePasswordPayload, string | null>();
  const passwordChange = passwordChangeMachine.provide({
    actors: { changePassword: fromPromise<string | null, ChangePasswordPayload>(({ input }) => changes.handler(input)) },
  });
  return { ...renderProfile('security', { passwordChange }, {}, inspect), changes, token: 'member-token' };
}
type Page = ReturnType<typeof openProfile>;
const passwordCard = () => screen.getByRole('region', { name: 'Password' });

async function submit(page: Page, values: readonly string[]) {
  for (const [index, label] of FIELDS.entries()) {
    const input = within(passwordCard()).getByLabelText(label, { selector: 'input' });
    await page.user.clear(input);
    if (values[index]) await page.user.type(input, values[index]);
  }
  await page.user.click(within(passwordCard()).getByRole('button', { name: 'Update Password' }));
}

async function expectPanel(page: Page, expected: { open: boolean; busy?: boolean; alert?: string; notice?: string }) {
  await see("the region 'Password'", passwordCard);
  const card = passwordCard();
  // The member stays logged in on this device, with the token issued by the last change.
  expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Log Out' })).toBeTruthy();
  expect(localStorage.getItem(SESSION_KEYS.jwt)).toBe(page.token);
  expect(localStorage.getItem(SESSION_KEYS.userId)).toBe('7');
  await see(`the panel ${expected.open ? 'open' : 'closed'}`, () =>
    expect(within(card).getByRole('button', { name: 'Change Password' }).getAttribute('aria-expanded')).toBe(String(expected.open)),
  );
  await seeAlert(passwordCard, expected.alert);
  if (!expected.open) {
    expect(within(card).queryByLabelText('Current Password')).toBeNull();
    await seeNotice(passwordCard, expected.notice);
    return;
  }
  await seeButton(passwordCard, { idle: 'Update Password', busy: 'Changing...' }, expected.busy ?? false);
}

const perform = {
  'panel.toggled': (page: Page) => page.user.click(within(passwordCard()).getByRole('button', { name: 'Change Password' })),
  'change.cancelled': (page: Page) => page.user.click(within(passwordCard()).getByRole('button', { name: 'Cancel' })),
  'change.submittedBlankCurrent': (page: Page) => submit(page, invalidSubmissions['change.submittedBlankCurrent'].fields),
  'change.submittedMismatch': (page: Page) => submit(page, invalidSubmissions['change.submittedMismatch'].fields),
  'change.submittedShort': (page: Page) => submit(page, invalidSubmissions['change.submittedShort'].fields),
  'change.submittedValid': (page: Page) => submit(page, ['oldpass1', 'newpass1', 'newpass1']),
  'server.changed': (page: Page) => {
    page.changes.last().settle.resolve(RENEWED_TOKEN);
    page.token = RENEWED_TOKEN;
  },
  'server.refused': (page: Page) => page.changes.last().settle.reject(new ApiError(SERVER_REFUSAL, 400)),
  'time.passed3s': noticeShownFor(3000, passwordCard, CHANGED),
};

describe('passwordChange: the spec model replayed against the Change Password panel', () => {
  // The Security tab is a lazy chunk: transformed once up front, so the first replay's waits measure the page.
  beforeAll(() => import('../../src/features/security/SecurityTab'), 60_000);
  afterEach(restoreProfileHarness);

  it('uses the spec delay', () => {
    expect(SUCCESS_NOTICE_MS).toBe(3000);
  });

  definePathTests<Page>({
    flow: 'passwordChange',
    machine: passwordChangeMachine,
    model: passwordChangeModel,
    open: { 'profile.opened': openProfile },
    perform,
    screens: {
      closed: (page) => expectPanel(page, { open: false }),
      open: async (page) => {
        await expectPanel(page, { open: true });
        // Opening the panel again starts with empty fields.
        for (const label of FIELDS) {
          expect((within(passwordCard()).getByLabelText(label, { selector: 'input' }) as HTMLInputElement).value).toBe('');
        }
      },
      invalid: (page, { via }) => expectPanel(page, { open: true, alert: shownFor(invalidSubmissions, via).message }),
      submitting: (page) => expectPanel(page, { open: true, busy: true }),
      refused: (page) => expectPanel(page, { open: true, alert: SERVER_REFUSAL }),
      changed: (page) => expectPanel(page, { open: false, notice: CHANGED }),
    },
  });

  it('sends currentPassword, password and passwordConfirmation', async () => {
    const page = openProfile();
    await settle(() => passwordCard());
    await perform['panel.toggled'](page);
    await perform['change.submittedValid'](page);
    expect(page.changes.last().input).toEqual({ currentPassword: 'oldpass1', password: 'newpass1', passwordConfirmation: 'newpass1' });
  });

  it('logs out when the server revoked the token but sent no new one', async () => {
    const page = openProfile();
    await settle(() => passwordCard());
    await perform['panel.toggled'](page);
    await perform['change.submittedValid'](page);
    page.changes.last().settle.resolve(null);
    await settle(() => expect(page.router.state.location.pathname).toBe('/login'));
    await settle(() => expect(screen.getByRole('status').textContent).toBe(authMessages.sessionExpired));
    expect(localStorage.getItem(SESSION_KEYS.jwt)).toBeNull();
    expect(localStorage.getItem(SESSION_KEYS.userId)).toBeNull();
  });
});
