import { afterEach, describe, expect, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { fromPromise } from 'xstate';
import { socialCallbackMachine } from '../../machines/socialCallback.machine';
import { ApiError } from '../../machines/services/errors';
import type { AuthResponse } from '../../server/src/contract/auth';
import { SESSION_KEYS, SOCIAL_REDIRECT_KEY } from '../../machines/services/session';
import { socialCallbackModel } from '../models/socialCallback.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { seeLoggedIn, seeLoggedOut, seeLoginPage, seePath } from '../support/pathSteps';
import { fakeServer, renderApp } from '../support/renderApp';

type ConnectInput = { provider: string; code: string; state?: string };
const SAVED_ROUTE = '/profile';
const SERVER_REFUSAL = 'Your Facebook account has no e-mail address.';
const RETURNING: AuthResponse = { jwt: 'jwt-fb', user: { id: 21, createdAt: '2024-01-01T00:00:00.000Z' } };

/** The provider sends the person back to `url`; `saved` is the route stored before leaving for it. */
function arrive(url: string, saved: string | null, inspect: Inspect) {
  vi.stubGlobal('fetch', fakeServer().fetch);
  const connects = deferredCalls<ConnectInput, AuthResponse>();
  const socialCallback = socialCallbackMachine.provide({
    actors: { connect: fromPromise(({ input }: { input: ConnectInput }) => connects.handler(input)) },
  });
  if (saved) localStorage.setItem(SOCIAL_REDIRECT_KEY, saved);
  return { ...renderApp(url, { flows: { socialCallback }, inspect }), connects, jwt: '' };
}
type Page = ReturnType<typeof arrive>;

const withCode = '/auth/facebook/callback?code=fb-code&state=st-1';

async function expectProcessing(page: Page) {
  await see("the status 'Processing login...'", () => expect(screen.getByRole('status').textContent).toBe('Processing login...'));
  expect(page.connects.last().input).toEqual({ provider: 'facebook', code: 'fb-code', state: 'st-1' });
  expect(localStorage.getItem(SESSION_KEYS.jwt)).toBeNull();
}

async function expectLoggedIn(page: Page, pathname: string) {
  await seePath(page, pathname);
  await seeLoggedIn(page.jwt);
  // The saved route is used once.
  expect(localStorage.getItem(SOCIAL_REDIRECT_KEY)).toBeNull();
}

async function expectLogInWith(page: Page, notice: string, { from }: { from: string }) {
  await seeLoginPage(page, notice);
  await seeLoggedOut();
  // Decided from the URL alone: nothing was sent to the server.
  if (from === 'notOpened') expect(page.connects.calls).toHaveLength(0);
}

describe('socialCallback: the spec model replayed against /auth/{provider}/callback', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  definePathTests<Page>({
    flow: 'socialCallback',
    machine: socialCallbackMachine,
    model: socialCallbackModel,
    open: {
      'provider.returnedCode': (inspect) => arrive(withCode, SAVED_ROUTE, inspect),
      'provider.returnedCodeNothingSaved': (inspect) => arrive(withCode, null, inspect),
      'provider.returnedError': (inspect) => arrive('/auth/facebook/callback?error=access_denied', SAVED_ROUTE, inspect),
      'provider.returnedEmptyError': (inspect) => arrive('/auth/facebook/callback?error=', SAVED_ROUTE, inspect),
      'provider.returnedNoCode': (inspect) => arrive('/auth/facebook/callback?state=st-1', SAVED_ROUTE, inspect),
    },
    perform: {
      'server.connectedReturning': (page) => {
        page.connects.last().settle.resolve(RETURNING);
        page.jwt = RETURNING.jwt;
      },
      'server.connectedNewAccount': (page) => {
        page.connects.last().settle.resolve({ jwt: 'jwt-fb-new', user: { id: 22, createdAt: new Date().toISOString() } });
        page.jwt = 'jwt-fb-new';
      },
      'server.refused': (page) => page.connects.last().settle.reject(new ApiError(SERVER_REFUSAL, 400)),
      'server.failedWithoutMessage': (page) => page.connects.last().settle.reject(new ApiError('', 502)),
    },
    screens: {
      processing: expectProcessing,
      processingNothingSaved: expectProcessing,
      loggedInAtSavedRoute: (page) => expectLoggedIn(page, SAVED_ROUTE),
      loggedInAtBmi: (page) => expectLoggedIn(page, '/bmi'),
      loggedInAtHome: (page) => expectLoggedIn(page, '/'),
      loginWithProviderError: (page, arrival) => expectLogInWith(page, 'access_denied', arrival),
      loginWithServerMessage: (page, arrival) => expectLogInWith(page, SERVER_REFUSAL, arrival),
      loginSocialFailed: (page, arrival) => expectLogInWith(page, 'Social login failed', arrival),
      loginInvalidResponse: (page, arrival) => expectLogInWith(page, 'Invalid social login response', arrival),
    },
  });
});
