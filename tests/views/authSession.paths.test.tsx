import { afterEach, beforeAll, describe, expect, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromPromise } from 'xstate';
import { authSessionMachine } from '../../machines/authSession.machine';
import { deleteAccountMachine } from '../../machines/deleteAccount.machine';
import { logoutAllDevicesMachine } from '../../machines/logoutAllDevices.machine';
import { passwordChangeMachine } from '../../machines/passwordChange.machine';
import { passwordResetMachine } from '../../machines/passwordReset.machine';
import { socialSignInMachine, type PopupProvider } from '../../machines/socialSignIn.machine';
import type { AuthResponse, ChangePasswordPayload, ResetPasswordPayload } from '../../server/src/contract/auth';
import { SESSION_KEYS, type Session } from '../../machines/services/session';
import { authSessionModel } from '../models/authSession.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { seeLoggedIn, seeLoggedOut, seePath } from '../support/pathSteps';
import { expectForm, fill, submitLogIn } from '../support/authForms';
import { fakeServer, renderApp } from '../support/renderApp';
import { settle } from '../support/settle';

const MEMBER: Session = { jwt: 'member-token', userId: '7' };
const OTHER_TAB: Session = { jwt: 'jwt-other-tab', userId: '9' };
const LOGIN_ANSWER: AuthResponse = { jwt: 'jwt-from-server', user: { id: 7, createdAt: '2025-01-01T00:00:00.000Z' } };
const GOOGLE_ANSWER: AuthResponse = { jwt: 'jwt-google', user: { id: 12, createdAt: '2025-01-01T00:00:00.000Z' } };
const RENEWED_TOKEN = 'jwt-after-password-change';
const PROVIDER_ERROR = 'access_denied';

function openApp(inspect: Inspect) {
  const server = fakeServer();
  // Every other flow that ends or renews the session runs for real, on deferred API doubles.
  const deletions = deferredCalls<void, void>();
  const logoutsEverywhere = deferredCalls<void, void>();
  const passwordChanges = deferredCalls<ChangePasswordPayload, string | null>();
  const resets = deferredCalls<ResetPasswordPayload, void>();
  const authorizations = deferredCalls<{ provider: PopupProvider }, string>();
  const exchanges = deferredCalls<{ provider: PopupProvider; token: string }, AuthResponse>();
  const flows = {
    deleteAccount: deleteAccountMachine.provide({ actors: { deleteAccount: fromPromise<void>(() => deletions.handler()) } }),
    logoutAllDevices: logoutAllDevicesMachine.provide({
      actors: { logoutAllDevices: fromPromise<void>(() => logoutsEverywhere.handler()) },
    }),
    passwordChange: passwordChangeMachine.provide({
      actors: { changePassword: fromPromise<string | null, ChangePasswordPayload>(({ input }) => passwordChanges.handler(input)) },
    }),
    passwordReset: passwordResetMachine.provide({
      actors: { resetPassword: fromPromise<void, ResetPasswordPayload>(({ input }) => resets.handler(input)) },
    }),
    socialSignIn: socialSignInMachine.provide({
      actors: {
        authorize: fromPromise(({ input }: { input: { provider: PopupProvider } }) => authorizations.handler(input)),
        exchangeToken: fromPromise(({ input }: { input: { provider: PopupProvider; token: string } }) => exchanges.handler(input)),
      },
    }),
  };
  // The stubbed fetch answers the profile loader (and 401s once the server refuses the token).
  vi.stubGlobal('fetch', server.fetch);
  const app = renderApp('/', { flows, inspect });
  return {
    ...app,
    server,
    deletions,
    logoutsEverywhere,
    passwordChanges,
    resets,
    authorizations,
    exchanges,
    session: null as Session | null,
  };
}
type Page = ReturnType<typeof openApp>;

const nav = () => screen.getByRole('navigation', { name: 'Main' });

async function follow(page: Page, link: string, pathname: string) {
  await userEvent.click(within(nav()).getByRole('link', { name: link }));
  await seePath(page, pathname);
}

/** Another tab logs in or out: only the storage changes, and the browser says so. */
function otherTab(session: Session | null) {
  if (session) {
    localStorage.setItem(SESSION_KEYS.jwt, session.jwt);
    localStorage.setItem(SESSION_KEYS.userId, session.userId);
  } else {
    localStorage.removeItem(SESSION_KEYS.jwt);
    localStorage.removeItem(SESSION_KEYS.userId);
  }
  window.dispatchEvent(new StorageEvent('storage', { key: SESSION_KEYS.jwt }));
}

const passwordCard = () => screen.getByRole('region', { name: 'Password' });
const securityTab = () => screen.getByRole('region', { name: 'Security' });

/** The password is changed, and every device logged out, in the Security tab (issue 28). */
async function openSecurity(page: Page) {
  if (!screen.queryByRole('region', { name: 'Security' })) await page.router.navigate({ to: '/profile', search: { tab: 'security' } });
  await see("the region 'Security'", securityTab, 20_000);
}

async function changePassword(page: Page, answer: string | null) {
  // Information's Change Password (SPEC §2) leads to the Security tab's Password section.
  await see("the region 'Password'", passwordCard);
  if (!screen.queryByRole('region', { name: 'Security' })) {
    await userEvent.click(within(passwordCard()).getByRole('button', { name: 'Change Password' }));
  }
  await openSecurity(page);
  await userEvent.click(within(passwordCard()).getByRole('button', { name: 'Change Password' }));
  for (const [label, value] of [
    ['Current Password', 'oldpass1'],
    ['New Password', 'newpass1'],
    ['Confirm New Password', 'newpass1'],
  ]) {
    await userEvent.type(within(passwordCard()).getByLabelText(label, { selector: 'input' }), value);
  }
  await userEvent.click(within(passwordCard()).getByRole('button', { name: 'Update Password' }));
  page.passwordChanges.last().settle.resolve(answer);
}

async function expectLoggedIn(page: Page, pathname: string) {
  await seePath(page, pathname);
  await seeLoggedIn(page.session?.jwt);
  expect(localStorage.getItem(SESSION_KEYS.userId)).toBe(page.session?.userId);
}

async function expectLoggedOut(page: Page, pathname: string) {
  await seePath(page, pathname);
  await seeLoggedOut();
}

const expectNotice = (page: Page, notice: string) => expectForm(page, { pathname: '/login', notice });

describe('authSession: the spec model replayed against the app', () => {
  // The pages are lazy chunks: loaded once here, so the first replay's screens do not wait on their first transform.
  beforeAll(
    () =>
      Promise.all([
        import('../../src/features/auth/LogInPage'),
        import('../../src/app/ProfileRoute'),
        import('../../src/features/security/SecurityTab'),
      ]),
    60_000,
  );

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  definePathTests<Page>({
    flow: 'authSession',
    machine: authSessionMachine,
    model: authSessionModel,
    open: {
      'app.openedLoggedOut': openApp,
      'app.openedLoggedIn': (inspect) => {
        localStorage.setItem(SESSION_KEYS.jwt, MEMBER.jwt);
        localStorage.setItem(SESSION_KEYS.userId, MEMBER.userId);
        return { ...openApp(inspect), session: MEMBER };
      },
    },
    perform: {
      'signUp.opened': (page) => follow(page, 'Sign Up', '/signup'),
      'logIn.opened': (page) => follow(page, 'Log In', '/login'),
      'profile.openedLoggedOut': (page) => page.router.navigate({ to: '/profile' }),
      'logIn.submitted': () => submitLogIn(),
      'server.loggedIn': (page) => {
        page.loginCalls.last().settle.resolve(LOGIN_ANSWER);
        page.session = { jwt: LOGIN_ANSWER.jwt, userId: String(LOGIN_ANSWER.user.id) };
      },
      'google.signedIn': async (page) => {
        await userEvent.click(screen.getByRole('button', { name: 'Continue with Google' }));
        page.authorizations.last().settle.resolve('google-id-token');
        await settle(() => page.exchanges.last());
        page.exchanges.last().settle.resolve(GOOGLE_ANSWER);
        page.session = { jwt: GOOGLE_ANSWER.jwt, userId: String(GOOGLE_ANSWER.user.id) };
      },
      'logOut.clicked': (page) => {
        page.session = null;
        return userEvent.click(within(nav()).getByRole('button', { name: 'Log Out' }));
      },
      'otherTab.loggedIn': (page) => {
        otherTab(OTHER_TAB);
        page.session = OTHER_TAB;
      },
      'otherTab.loggedOut': (page) => {
        otherTab(null);
        page.session = null;
      },
      'profile.opened': (page) => follow(page, 'Profile', '/profile'),
      'profile.openedTokenRefused': async (page) => {
        // The server refuses the stored token on the next authenticated call.
        page.server.refuseTokens = 'expired';
        await userEvent.click(within(nav()).getByRole('link', { name: 'Profile' }));
      },
      'profile.openedSignedOutElsewhere': async (page) => {
        page.server.refuseTokens = 'signedOut';
        await userEvent.click(within(nav()).getByRole('link', { name: 'Profile' }));
      },
      'account.deletedOnDeletePage': async (page) => {
        await follow(page, 'Delete Account', '/delete-profile');
        await userEvent.click(await screen.findByRole('button', { name: 'Delete My Account' }));
        const dialog = screen.getByRole('alertdialog', { name: 'Confirm Account Deletion' });
        await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, Delete' }));
        page.deletions.last().settle.resolve();
      },
      'allDevices.loggedOut': async (page) => {
        await openSecurity(page);
        const devices = () => within(securityTab()).getByRole('group', { name: 'Signed-in devices' });
        await see("the group 'All devices'", () => within(devices()).getByRole('group', { name: 'All devices' }));
        const group = within(devices()).getByRole('group', { name: 'All devices' });
        await userEvent.click(within(group).getByRole('button', { name: 'Log out of all devices' }));
        page.logoutsEverywhere.last().settle.resolve();
      },
      'password.changed': async (page) => {
        await changePassword(page, RENEWED_TOKEN);
        page.session = { jwt: RENEWED_TOKEN, userId: page.session?.userId ?? '' };
      },
      // The server revoked the old token but sent no new one.
      'password.changedWithoutToken': (page) => changePassword(page, null),
      'resetLink.followed': async (page) => {
        await page.router.navigate({ to: '/reset-password', search: { code: 'code-from-email' } });
        await fill('New Password', 'newpass1');
        await fill('Confirm New Password', 'newpass1');
        await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
        page.resets.last().settle.resolve();
      },
      'provider.returnedError': (page) => page.router.history.push(`/auth/facebook/callback?error=${PROVIDER_ERROR}`),
    },
    screens: {
      visitorHome: (page) => expectLoggedOut(page, '/'),
      signUpForm: (page) => expectForm(page, { pathname: '/signup' }),
      logInForm: (page) => expectForm(page, { pathname: '/login' }),
      logInForProfile: async (page) => {
        await expectForm(page, { pathname: '/login' });
        expect(page.router.state.location.search).toEqual({ from: '/profile' });
      },
      loggingIn: async (page) => {
        await expectForm(page, { pathname: '/login', busy: true });
        expect(page.loginCalls.last().input).toEqual({ identifier: 'ribeye', password: 'secret123' });
      },
      loggingInForProfile: (page) => expectForm(page, { pathname: '/login', busy: true }),
      sessionExpiredNotice: (page) => expectNotice(page, 'Your session has expired. Please log in again.'),
      signedOutElsewhereNotice: (page) => expectNotice(page, 'You were signed out from another device.'),
      accountDeletedNotice: (page) => expectNotice(page, 'Your account has been deleted successfully.'),
      loggedOutEverywhereNotice: (page) => expectNotice(page, 'You have been logged out of all devices.'),
      passwordResetNotice: (page) => expectNotice(page, 'Your password has been reset. You can now log in with your new password.'),
      socialFailureNotice: (page) => expectNotice(page, PROVIDER_ERROR),
      memberHome: (page) => expectLoggedIn(page, '/'),
      memberProfile: async (page) => {
        await expectLoggedIn(page, '/profile');
        await see("the region 'Password'", passwordCard);
      },
    },
  });
});
