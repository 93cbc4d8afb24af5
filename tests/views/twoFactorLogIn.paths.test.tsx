import { afterEach, beforeAll, describe, expect, vi } from 'vitest';
import { twoFactorLogInMachine } from '../../machines/twoFactorLogIn.machine';
import { ApiError } from '../../machines/services/errors';
import type { AuthResponse } from '../../server/src/contract/auth';
import { twoFactorMessages } from '../../server/src/contract/twoFactor';
import { twoFactorLogInModel } from '../models/twoFactorLogIn.model';
import { definePathTests, type Inspect } from '../support/pathTests';
import { seeLoggedIn, seePath } from '../support/pathSteps';
import { backFromCode, expectCodeForm, expectLogInForm, submitCode, submitLogIn } from '../support/authForms';
import { settle } from '../support/settle';
import { fakeServer, renderApp } from '../support/renderApp';

const AFTER_CODE: AuthResponse = { jwt: 'jwt-after-code', user: { id: 7, createdAt: '2025-01-01T00:00:00.000Z' } };
const TICKET = 'ticket-from-server';

/** /login?from=/profile, the password sent, and the server asks for the code. */
async function openSecondStep(inspect: Inspect) {
  vi.stubGlobal('fetch', fakeServer().fetch);
  const app = renderApp('/login?from=%2Fprofile', { inspect });
  await submitLogIn();
  await settle(() => expect(app.loginCalls.calls).toHaveLength(1));
  app.loginCalls.last().settle.resolve({ twoFactorRequired: true, ticket: TICKET });
  return { ...app, jwt: '' };
}
type Page = Awaited<ReturnType<typeof openSecondStep>>;

/** The code call the step sent last: the ticket, and the code as typed without its spaces around. */
const expectCodeSent = (page: Page) => expect(page.loginCalls.last().input).toEqual({ ticket: TICKET, code: '123456' });

describe('twoFactorLogIn: the model replayed against the Log In page', () => {
  // The Log In page is a lazy chunk: loaded once here, so the first replay's screens do not wait on its first transform.
  beforeAll(() => import('../../src/features/auth/LogInPage'), 60_000);

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  definePathTests<Page>({
    flow: 'twoFactorLogIn',
    machine: twoFactorLogInMachine,
    model: twoFactorLogInModel,
    open: { 'page.opened': openSecondStep },
    perform: {
      'code.submitted': () => submitCode(' 123456 '),
      'server.acceptedCode': (page) => {
        page.loginCalls.last().settle.resolve(AFTER_CODE);
        page.jwt = AFTER_CODE.jwt;
      },
      'server.refusedCode': (page) => page.loginCalls.last().settle.reject(new ApiError(twoFactorMessages.wrongCode, 400)),
      'server.ticketVoid': (page) => page.loginCalls.last().settle.reject(new ApiError(twoFactorMessages.ticketExpired, 401)),
      'server.ticketBurnt': (page) => page.loginCalls.last().settle.reject(new ApiError(twoFactorMessages.ticketBurnt, 401)),
      'server.failed': (page) => page.loginCalls.last().settle.reject(new ApiError('', 502)),
      'secondStep.back': () => backFromCode(),
    },
    screens: {
      codeForm: (page) => expectCodeForm(page),
      verifying: async (page) => {
        await expectCodeForm(page, { busy: true });
        expectCodeSent(page);
      },
      codeRefused: (page) => expectCodeForm(page, { alert: 'That code is not right. Try again.' }),
      logInExpired: (page) => expectCodeForm(page, { alert: 'Your log-in has expired. Please log in again.' }),
      tooManyCodes: (page) => expectCodeForm(page, { alert: 'Too many wrong codes. Please log in again.' }),
      codeFailed: (page) => expectCodeForm(page, { alert: 'Login failed' }),
      logInForm: (page) => expectLogInForm(page, 'ribeye'),
      loggedInAtFrom: async (page) => {
        await seePath(page, '/profile');
        await seeLoggedIn(page.jwt);
      },
    },
  });
});
