import { afterEach, beforeAll, describe, expect, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { signUpMachine } from '../../machines/signUp.machine';
import { ApiError } from '../../machines/services/errors';
import { SESSION_KEYS } from '../../machines/services/session';
import { signUpModel } from '../models/signUp.model';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { seeLoggedIn, seeLoggedOut, seePath } from '../support/pathSteps';
import { expectForm, submitSignUp, type SignUpFields } from '../support/authForms';
import { fakeServer, renderApp } from '../support/renderApp';

const SERVER_REFUSAL = 'Email is already taken';

const signUps: Record<string, SignUpFields> = {
  'signUp.submittedBlank': { username: '', email: 'ribeye@example.com', password: 'secret123' },
  'signUp.submittedBadEmail': { username: 'ribeye', email: 'not-an-email', password: 'secret123' },
  'signUp.submittedBadUsername': { username: 'rib@eye', email: 'ribeye@example.com', password: 'secret123' },
  'signUp.submittedValid': { username: 'ribeye', email: 'ribeye@example.com', password: 'secret123' },
};

function openSignUp(inspect: Inspect) {
  // The stubbed fetch answers the profile loader once signed up.
  vi.stubGlobal('fetch', fakeServer().fetch);
  // renderApp provides the sign-up with its register double (registerCalls).
  const app = renderApp('/signup', { inspect });
  return { ...app, jwt: '' };
}
type Page = ReturnType<typeof openSignUp>;

const card = () => screen.getByRole('heading', { level: 1 }).parentElement!;

describe('signUp: the model replayed against the Sign Up page', () => {
  // The pages are lazy chunks: loaded once here, so the first replay's screens do not wait on their first transform.
  beforeAll(() => Promise.all([import('../../src/features/auth/SignUpPage'), import('../../src/features/auth/LogInPage')]), 60_000);

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  definePathTests<Page>({
    flow: 'signUp',
    machine: signUpMachine,
    model: signUpModel,
    open: { 'page.opened': openSignUp },
    perform: {
      'signUp.submittedBlank': () => submitSignUp(signUps['signUp.submittedBlank']),
      'signUp.submittedBadEmail': () => submitSignUp(signUps['signUp.submittedBadEmail']),
      'signUp.submittedBadUsername': () => submitSignUp(signUps['signUp.submittedBadUsername']),
      'signUp.submittedValid': () => submitSignUp(signUps['signUp.submittedValid']),
      'server.signedUp': (page) => {
        // Made this moment: only a social sign-in sends a new account to /bmi.
        page.registerCalls.last().settle.resolve({ jwt: 'jwt-new-member', user: { id: 8, createdAt: new Date().toISOString() } });
        page.jwt = 'jwt-new-member';
      },
      // Strapi under e-mail confirmation answers with the user only.
      'server.signedUpAwaitingConfirmation': (page) =>
        page.registerCalls.last().settle.resolve({ user: { id: 8, createdAt: new Date().toISOString() } }),
      'server.refused': (page) => page.registerCalls.last().settle.reject(new ApiError(SERVER_REFUSAL, 400)),
      'server.failed': (page) => page.registerCalls.last().settle.reject(new ApiError('', 500)),
      'logIn.linkFollowed': () => userEvent.click(within(card()).getByRole('link', { name: 'Log In' })),
      'signUp.linkFollowed': () => userEvent.click(within(card()).getByRole('link', { name: 'Sign Up' })),
      'browser.back': (page) => page.router.history.back(),
    },
    screens: {
      signUpForm: async (page) => {
        await expectForm(page, { pathname: '/signup' });
        for (const label of ['Username', 'Email', 'Password']) {
          expect((screen.getByLabelText(label, { selector: 'input' }) as HTMLInputElement).value).toBe('');
        }
      },
      incomplete: (page) => expectForm(page, { pathname: '/signup', alert: 'Please fill in all required fields.' }),
      badEmail: (page) => expectForm(page, { pathname: '/signup', alert: 'Please enter a valid email address.' }),
      badUsername: async (page) => {
        await expectForm(page, { pathname: '/signup', alert: 'Username may only contain letters, digits, ".", "_" and "-"' });
        expect(page.registerCalls.calls).toHaveLength(0);
      },
      signingUp: async (page) => {
        await expectForm(page, { pathname: '/signup', busy: true });
        expect(page.registerCalls.calls.map((call) => call.input)).toEqual([signUps['signUp.submittedValid']]);
      },
      refused: (page) => expectForm(page, { pathname: '/signup', alert: SERVER_REFUSAL }),
      failed: (page) => expectForm(page, { pathname: '/signup', alert: 'Registration failed' }),
      logInPage: (page) => expectForm(page, { pathname: '/login' }),
      confirmEmailNotice: async (page) => {
        await expectForm(page, {
          pathname: '/login',
          notice: 'Your account has been created. Please confirm your email address using the link we sent you, then log in.',
        });
        await seeLoggedOut();
      },
      memberProfile: async (page) => {
        await seePath(page, '/profile');
        await seeLoggedIn(page.jwt);
        expect(localStorage.getItem(SESSION_KEYS.userId)).toBe('8');
        await see('the profile greeting', () => screen.getByText(/Hello,/));
      },
    },
  });
});
