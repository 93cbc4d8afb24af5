import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromPromise } from 'xstate';
import { socialSignInMachine, type PopupProvider } from '../../machines/socialSignIn.machine';
import { ApiError } from '../../machines/services/errors';
import type { AuthResponse } from '../../server/src/contract/auth';
import { SESSION_KEYS } from '../../machines/services/session';
import { providerMessages } from '../../src/features/auth/social/providerClients';
import { socialSignInModel } from '../models/socialSignIn.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { seeAlert, seeLoggedIn, seePath, wholePage } from '../support/pathSteps';
import { fakeServer, renderApp } from '../support/renderApp';

type Provider = PopupProvider | 'facebook';
const ID_TOKEN = 'id-token-from-provider';
const SERVER_REFUSAL = 'Email is already taken.';
const FACEBOOK_NOT_SET_UP = 'Facebook sign-in is not set up on this site.';
const RETURNING: AuthResponse = { jwt: 'jwt-returning', user: { id: 7, createdAt: '2024-03-01T10:00:00.000Z' } };
const buttonNames = { google: 'Continue with Google', apple: 'Continue with Apple', facebook: 'Continue with Facebook' } as const;

function openLogIn(inspect: Inspect) {
  vi.stubGlobal('fetch', fakeServer().fetch);
  const authorizations = deferredCalls<{ provider: PopupProvider }, string>();
  const exchanges = deferredCalls<{ provider: PopupProvider; token: string }, AuthResponse>();
  const checks = deferredCalls<void, void>();
  const saveReturnRoute = vi.fn();
  const redirectTo = vi.fn<(url: string) => void>();
  const socialSignIn = socialSignInMachine.provide({
    actors: {
      authorize: fromPromise(({ input }: { input: { provider: PopupProvider } }) => authorizations.handler(input)),
      exchangeToken: fromPromise(({ input }: { input: { provider: PopupProvider; token: string } }) => exchanges.handler(input)),
      checkRedirectProvider: fromPromise(() => checks.handler()),
    },
    actions: { saveReturnRoute: (_, returnTo) => saveReturnRoute(returnTo), redirectTo: (_, url) => redirectTo(url) },
  });
  // A visitor sent to /login from /profile.
  const app = renderApp('/login?from=%2Fprofile', { flows: { socialSignIn }, inspect });
  return { ...app, authorizations, exchanges, checks, saveReturnRoute, redirectTo, jwt: '' };
}
type Page = ReturnType<typeof openLogIn>;

/** The Log In page's social buttons: the one connecting (all wait), and the alert. */
async function expectButtons(page: Page, { connecting, alert }: { connecting?: Provider; alert?: string }) {
  await see("the heading 'Log In'", () => screen.getByRole('heading', { name: 'Log In' }));
  await see(connecting ? `'Connecting...' on ${buttonNames[connecting]}, all disabled` : 'the three buttons enabled', () => {
    for (const [provider, name] of Object.entries(buttonNames)) {
      const button = screen.getByRole('button', { name: provider === connecting ? 'Connecting...' : name }) as HTMLButtonElement;
      expect(button.disabled).toBe(connecting !== undefined);
    }
  });
  await seeAlert(wholePage, alert);
  expect(localStorage.getItem(SESSION_KEYS.jwt)).toBeNull();
  expect(page.redirectTo).not.toHaveBeenCalled();
}

async function expectExchanging(page: Page, provider: PopupProvider) {
  await expectButtons(page, { connecting: provider });
  // The same label as while the popup is open: wait for the exchange itself.
  await see('the ID token sent to the server', () => expect(page.exchanges.last().input).toEqual({ provider, token: ID_TOKEN }));
}

async function expectLoggedIn(page: Page, pathname: string) {
  await seePath(page, pathname);
  await seeLoggedIn(page.jwt);
}

describe('socialSignIn: the spec model replayed against the Log In page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  definePathTests<Page>({
    flow: 'socialSignIn',
    machine: socialSignInMachine,
    model: socialSignInModel,
    open: { 'page.opened': openLogIn },
    perform: {
      'google.clicked': () => userEvent.click(screen.getByRole('button', { name: buttonNames.google })),
      'apple.clicked': () => userEvent.click(screen.getByRole('button', { name: buttonNames.apple })),
      'facebook.clicked': () => userEvent.click(screen.getByRole('button', { name: buttonNames.facebook })),
      'provider.gaveToken': (page) => page.authorizations.last().settle.resolve(ID_TOKEN),
      'provider.cancelled': (page) => page.authorizations.last().settle.reject(new Error()),
      'server.signedInReturning': (page) => {
        page.exchanges.last().settle.resolve(RETURNING);
        page.jwt = RETURNING.jwt;
      },
      'server.signedInNewAccount': (page) => {
        page.exchanges.last().settle.resolve({ jwt: 'jwt-new', user: { id: 8, createdAt: new Date().toISOString() } });
        page.jwt = 'jwt-new';
      },
      'server.refused': (page) => page.exchanges.last().settle.reject(new ApiError(SERVER_REFUSAL, 400)),
      'server.failedWithoutMessage': (page) => page.exchanges.last().settle.reject(new ApiError('', 502)),
      'facebook.ready': (page) => page.checks.last().settle.resolve(),
      'facebook.notSetUp': (page) => page.checks.last().settle.reject(new Error(FACEBOOK_NOT_SET_UP)),
    },
    screens: {
      ready: (page) => expectButtons(page, {}),
      googlePopup: async (page) => {
        await expectButtons(page, { connecting: 'google' });
        expect(page.authorizations.last().input).toEqual({ provider: 'google' });
      },
      applePopup: async (page) => {
        await expectButtons(page, { connecting: 'apple' });
        expect(page.authorizations.last().input).toEqual({ provider: 'apple' });
      },
      googleExchanging: (page) => expectExchanging(page, 'google'),
      appleExchanging: (page) => expectExchanging(page, 'apple'),
      googleCancelled: (page) => expectButtons(page, { alert: 'Google Sign-In was canceled or failed' }),
      appleCancelled: (page) => expectButtons(page, { alert: 'Apple Sign-In was canceled or failed' }),
      googleRefused: (page) => expectButtons(page, { alert: SERVER_REFUSAL }),
      googleFailed: (page) => expectButtons(page, { alert: 'Google Sign-In failed' }),
      appleFailed: (page) => expectButtons(page, { alert: 'Apple Sign-In failed' }),
      facebookChecking: async (page) => {
        await expectButtons(page, { connecting: 'facebook' });
        expect(page.saveReturnRoute).not.toHaveBeenCalled();
      },
      leftForFacebook: async (page) => {
        // The buttons wait while the browser leaves for the server's connect endpoint.
        await see('the return route saved and the browser sent to Facebook', () => {
          expect(page.saveReturnRoute).toHaveBeenCalledWith('/profile');
          expect(page.redirectTo).toHaveBeenCalledExactlyOnceWith('/api/connect/facebook');
        });
        expect((screen.getByRole('button', { name: 'Connecting...' }) as HTMLButtonElement).disabled).toBe(true);
        expect(localStorage.getItem(SESSION_KEYS.jwt)).toBeNull();
      },
      facebookNotSetUp: (page) => expectButtons(page, { alert: FACEBOOK_NOT_SET_UP }),
      loggedInAtFrom: (page) => expectLoggedIn(page, '/profile'),
      loggedInAtBmi: (page) => expectLoggedIn(page, '/bmi'),
    },
  });
});

describe('provider messages (SPEC §8)', () => {
  it('uses the spec wording', () => {
    expect(providerMessages.googleCancelled).toBe('Google Sign-In was canceled or failed');
    expect(providerMessages.appleNoToken).toBe('Apple Sign-In failed: No ID token received');
    expect(providerMessages.appleCancelled).toBe('Apple Sign-In was canceled or failed');
  });
});
