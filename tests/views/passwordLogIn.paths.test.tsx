import { afterEach, beforeAll, describe, expect, vi } from 'vitest';
import { passwordLogInMachine } from '../../machines/passwordLogIn.machine';
import { ApiError } from '../../machines/services/errors';
import { SESSION_KEYS } from '../../machines/services/session';
import type { AuthResponse } from '../../server/src/contract/auth';
import { passwordLogInModel } from '../models/passwordLogIn.model';
import { definePathTests, type Inspect } from '../support/pathTests';
import { seeLoggedIn, seePath } from '../support/pathSteps';
import { backFromCode, expectCodeForm, expectForm, expectLogInForm, submitCode, submitLogIn } from '../support/authForms';
import { settle } from '../support/settle';
import { fakeServer, renderApp } from '../support/renderApp';

const SERVER_REFUSAL = 'Invalid identifier or password';
// Created this moment: a password log-in still goes to `from` (only social users start at /bmi).
const ANSWER: AuthResponse = { jwt: 'jwt-from-server', user: { id: 7, createdAt: new Date().toISOString() } };
const AFTER_CODE: AuthResponse = { jwt: 'jwt-after-code', user: { id: 7, createdAt: '2025-01-01T00:00:00.000Z' } };

function openLogIn(inspect: Inspect) {
  // The stubbed fetch answers the profile loader once logged in.
  vi.stubGlobal('fetch', fakeServer().fetch);
  // A visitor sent to /login from /profile; renderApp provides the log-in with its doubles (loginCalls).
  const app = renderApp('/login?from=%2Fprofile', { inspect });
  return { ...app, jwt: '' };
}
type Page = ReturnType<typeof openLogIn>;

describe('passwordLogIn: the model replayed against the Log In page', () => {
  // The Log In page is a lazy chunk: loaded once here, so the first replay's screens do not wait on its first transform.
  beforeAll(() => import('../../src/features/auth/LogInPage'), 60_000);

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  definePathTests<Page>({
    flow: 'passwordLogIn',
    machine: passwordLogInMachine,
    model: passwordLogInModel,
    open: { 'page.opened': openLogIn },
    perform: {
      'logIn.submitted': () => submitLogIn(),
      'server.loggedIn': (page) => {
        page.loginCalls.last().settle.resolve(ANSWER);
        page.jwt = ANSWER.jwt;
      },
      'server.refused': (page) => page.loginCalls.last().settle.reject(new ApiError(SERVER_REFUSAL, 400)),
      'server.failed': (page) => page.loginCalls.last().settle.reject(new ApiError('', 500)),
      'server.askedForCode': (page) => page.loginCalls.last().settle.resolve({ twoFactorRequired: true, ticket: 'ticket-from-server' }),
      'code.accepted': async (page) => {
        await submitCode('123456');
        await settle(() => expect(page.loginCalls.calls).toHaveLength(2));
        page.loginCalls.last().settle.resolve(AFTER_CODE);
        page.jwt = AFTER_CODE.jwt;
      },
      'secondStep.back': () => backFromCode(),
    },
    screens: {
      logInForm: async (page) => {
        await expectLogInForm(page, '');
        expect(page.router.state.location.search).toEqual({ from: '/profile' });
      },
      loggingIn: async (page) => {
        await expectForm(page, { pathname: '/login', busy: true });
        expect(page.loginCalls.last().input).toEqual({ identifier: 'ribeye', password: 'secret123' });
      },
      refused: (page) => expectForm(page, { pathname: '/login', alert: SERVER_REFUSAL }),
      failed: (page) => expectForm(page, { pathname: '/login', alert: 'Login failed' }),
      codeForm: (page) => expectCodeForm(page),
      // Back from the code: the identifier as typed, the password to type again.
      logInFormAgain: (page) => expectLogInForm(page, 'ribeye'),
      loggedInAtFrom: async (page) => {
        await seePath(page, '/profile');
        await seeLoggedIn(page.jwt);
        expect(localStorage.getItem(SESSION_KEYS.userId)).toBe('7');
      },
    },
  });
});
