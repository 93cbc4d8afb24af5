import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromPromise } from 'xstate';
import { passwordResetMachine } from '../../machines/passwordReset.machine';
import { ApiError } from '../../machines/services/errors';
import type { ResetPasswordPayload } from '../../server/src/contract/auth';
import { SESSION_KEYS } from '../../machines/services/session';
import { passwordResetModel } from '../models/passwordReset.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { seeAlert, seeLoginPage, seeLoggedOut, seePath, shownFor, wholePage } from '../support/pathSteps';
import { renderApp } from '../support/renderApp';

const LINK_CODE = 'from-email-link';
const EMAIL = 'ribeye@example.com';
const REQUEST_REFUSAL = 'Too many requests, please try again later.';
const RESET_REFUSAL = 'Incorrect code provided';
/** SPEC §5: what each invalid submission says. */
const invalidInput: Record<string, string> = {
  'email.submittedBlank': 'Please enter your email.',
  'email.submittedMalformed': 'Please enter a valid email address.',
  'reset.submittedWithoutCode': 'Please enter the reset code.',
  'reset.submittedWithoutPassword': 'Please fill in both password fields.',
  'reset.submittedMismatch': 'Passwords do not match.',
  'reset.submittedShort': 'Password should be at least 6 characters.',
};

function openResetPage(code: string | undefined, inspect?: Inspect) {
  const requestCalls = deferredCalls<{ email: string }, void>();
  const resetCalls = deferredCalls<ResetPasswordPayload, void>();
  const passwordReset = passwordResetMachine.provide({
    actors: {
      requestCode: fromPromise<void, { email: string }>(({ input }) => requestCalls.handler(input)),
      resetPassword: fromPromise<void, ResetPasswordPayload>(({ input }) => resetCalls.handler(input)),
    },
  });
  const app = renderApp(code ? `/reset-password?code=${code}` : '/reset-password', { flows: { passwordReset }, inspect });
  return { ...app, requestCalls, resetCalls };
}
type Page = ReturnType<typeof openResetPage>;

async function fill(label: string, value: string) {
  const input = await screen.findByLabelText(label, { selector: 'input' });
  await userEvent.clear(input);
  if (value) await userEvent.type(input, value);
}

async function submitEmail(email: string) {
  await fill('Email', email);
  await userEvent.click(screen.getByRole('button', { name: 'Send Reset Code' }));
}

async function submitReset(code: string | null, password: string, passwordConfirmation: string) {
  if (code !== null) await fill('Reset Code', code);
  await fill('New Password', password);
  await fill('Confirm New Password', passwordConfirmation);
  await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
}

async function expectStep(step: 'email' | 'code', expected: { busy?: 'Sending...' | 'Resetting...'; alert?: string } = {}) {
  await see("the heading 'Reset Password'", () => screen.getByRole('heading', { name: 'Reset Password' }));
  await see(`step ${step === 'email' ? 1 : 2}`, () => {
    expect(screen.queryByLabelText('Email') !== null).toBe(step === 'email');
    expect(screen.queryByLabelText('Reset Code') !== null).toBe(step === 'code');
  });
  if (expected.busy) expect((screen.getByRole('button', { name: expected.busy }) as HTMLButtonElement).disabled).toBe(true);
  await seeAlert(wholePage, expected.alert);
}

const expectInvalid = (step: 'email' | 'code', via: string) => expectStep(step, { alert: shownFor(invalidInput, via) });

const perform = {
  'email.submittedBlank': () => submitEmail(''),
  'email.submittedMalformed': () => submitEmail('ribeye@'),
  'email.submittedValid': () => submitEmail(EMAIL),
  'server.codeSent': (page: Page) => page.requestCalls.last().settle.resolve(),
  'server.refusedRequest': (page: Page) => page.requestCalls.last().settle.reject(new ApiError(REQUEST_REFUSAL, 429)),
  'server.refusedReset': (page: Page) => page.resetCalls.last().settle.reject(new ApiError(RESET_REFUSAL, 400)),
  'reset.submittedWithoutCode': () => submitReset('', 'newpass1', 'newpass1'),
  'reset.submittedWithoutPassword': () => submitReset('c0de', '', 'newpass1'),
  'reset.submittedMismatch': () => submitReset('c0de', 'newpass1', 'newpass2'),
  'reset.submittedShort': () => submitReset('c0de', 'short', 'short'),
  'reset.submittedValid': () => submitReset('c0de', 'newpass1', 'newpass1'),
  'reset.submittedWithLinkCode': () => submitReset(null, 'newpass1', 'newpass1'),
  'code.requestedAgain': () => userEvent.click(screen.getByRole('button', { name: 'Send a new code' })),
  'server.reset': (page: Page) => page.resetCalls.last().settle.resolve(),
};

describe('passwordReset: the spec model replayed against the Reset Password page', () => {
  definePathTests<Page>({
    flow: 'passwordReset',
    machine: passwordResetMachine,
    model: passwordResetModel,
    open: {
      'page.opened': (inspect) => openResetPage(undefined, inspect),
      'page.openedWithCode': (inspect) => openResetPage(LINK_CODE, inspect),
    },
    perform,
    screens: {
      emailEntry: () => expectStep('email'),
      emailInvalid: (_page, { via }) => expectInvalid('email', via),
      sending: () => expectStep('email', { busy: 'Sending...' }),
      emailRefused: () => expectStep('email', { alert: REQUEST_REFUSAL }),
      codeSent: async () => {
        await expectStep('code');
        expect(screen.getByRole('status').textContent).toContain(`If an account exists for ${EMAIL}`);
      },
      codeFromLink: async () => {
        await expectStep('code');
        expect((screen.getByLabelText('Reset Code') as HTMLInputElement).value).toBe(LINK_CODE);
      },
      resetInvalid: (_page, { via }) => expectInvalid('code', via),
      resetting: () => expectStep('code', { busy: 'Resetting...' }),
      resetRefused: () => expectStep('code', { alert: RESET_REFUSAL }),
      loginPage: async (page) => {
        await seeLoginPage(page, 'Your password has been reset. You can now log in with your new password.');
        await seeLoggedOut();
      },
    },
  });

  it('logs this browser out: the reset revoked the stored token', async () => {
    localStorage.setItem(SESSION_KEYS.jwt, 'member-token');
    localStorage.setItem(SESSION_KEYS.userId, '7');
    const page = openResetPage(LINK_CODE);
    await screen.findByRole('heading', { name: 'Reset Password' });
    expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Log Out' })).toBeTruthy();
    await perform['reset.submittedWithLinkCode']();
    page.resetCalls.last().settle.resolve();
    await seePath(page, '/login');
    await seeLoggedOut();
  });

  it('sends the trimmed email and the reset payload of SPEC §7', async () => {
    const page = openResetPage(undefined);
    await submitEmail(' ribeye@example.com ');
    expect(page.requestCalls.last().input).toEqual({ email: 'ribeye@example.com' });
    page.requestCalls.last().settle.resolve();
    await perform['reset.submittedValid']();
    expect(page.resetCalls.last().input).toEqual({ code: 'c0de', password: 'newpass1', passwordConfirmation: 'newpass1' });
  });
});
