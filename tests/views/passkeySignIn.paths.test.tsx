import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromPromise } from 'xstate';
import { passkeySignInMachine } from '../../machines/passkeySignIn.machine';
import { ApiError } from '../../machines/services/errors';
import { PasskeyCancelledError } from '../../machines/services/webauthn';
import { SESSION_KEYS } from '../../machines/services/session';
import type { AuthResponse } from '../../server/src/contract/auth';
import { passkeyMessages } from '../../server/src/contract/passkeys';
import { passkeySignInModel } from '../models/passkeySignIn.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { seeLoggedIn, seeMessages, seePath, wholePage } from '../support/pathSteps';
import { fakeServer, renderApp } from '../support/renderApp';

const SERVER_REFUSAL = 'Your account has been blocked by an administrator';
const RETURNING: AuthResponse = { jwt: 'jwt-passkey', user: { id: 7, createdAt: '2024-03-01T10:00:00.000Z' } };
const BUTTON = 'Sign in with a passkey';
const WAITING = 'Waiting for your passkey...';

function openLogIn(inspect: Inspect) {
  vi.stubGlobal('fetch', fakeServer().fetch);
  const dialogs = deferredCalls<void, AuthResponse>();
  const autofills = deferredCalls<void, AuthResponse>();
  const passkeySignIn = passkeySignInMachine.provide({
    actors: { signIn: fromPromise(() => dialogs.handler()), autofill: fromPromise(() => autofills.handler()) },
  });
  // A visitor sent to /login from /profile.
  const app = renderApp('/login?from=%2Fprofile', { flows: { passkeySignIn }, inspect });
  return { ...app, dialogs, autofills, jwt: '' };
}
type Page = ReturnType<typeof openLogIn>;

/** Log In with the passkey button (waiting or not), the page's messages, and no session stored. */
async function expectLogIn(page: Page, { waiting = false, alert, notice }: { waiting?: boolean; alert?: string; notice?: string }) {
  await seePath(page, '/login');
  await see("the heading 'Log In'", () => screen.getByRole('heading', { name: 'Log In' }));
  await see(waiting ? `'${WAITING}' disabled` : `'${BUTTON}' enabled`, () =>
    expect((screen.getByRole('button', { name: waiting ? WAITING : BUTTON }) as HTMLButtonElement).disabled).toBe(waiting),
  );
  // The identifier field offers passkeys: its autocomplete ends in "webauthn".
  expect(screen.getByLabelText('Email or Username').getAttribute('autocomplete')).toBe('username webauthn');
  await seeMessages(wholePage, { alert, notice });
  expect(localStorage.getItem(SESSION_KEYS.jwt)).toBeNull();
}

describe('passkeySignIn: the model replayed against the Log In page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('uses calm words for a closed dialog and clear ones for a refusal', () => {
    expect(passkeyMessages.cancelled).toBe('No passkey was used. You can try again whenever you like.');
    expect(passkeyMessages.signInFailed).toBe('This passkey could not sign you in. Please try again or log in with your password.');
  });

  definePathTests<Page>({
    flow: 'passkeySignIn',
    machine: passkeySignInMachine,
    model: passkeySignInModel,
    open: { 'page.opened': openLogIn },
    perform: {
      'passkey.clicked': () => userEvent.click(screen.getByRole('button', { name: BUTTON })),
      'server.signedIn': (page) => {
        page.dialogs.last().settle.resolve(RETURNING);
        page.jwt = RETURNING.jwt;
      },
      'member.cancelled': (page) => page.dialogs.last().settle.reject(new PasskeyCancelledError(passkeyMessages.cancelled)),
      'server.refused': (page) => page.dialogs.last().settle.reject(new ApiError(SERVER_REFUSAL, 400)),
      'server.failedWithoutMessage': (page) => page.dialogs.last().settle.reject(new ApiError('', 502)),
      'autofill.signedIn': (page) => {
        page.autofills.last().settle.resolve(RETURNING);
        page.jwt = RETURNING.jwt;
      },
      'autofill.refused': (page) => page.autofills.last().settle.reject(new ApiError(passkeyMessages.unknownPasskey, 400)),
      'autofill.unavailable': (page) => page.autofills.last().settle.reject(new PasskeyCancelledError('')),
    },
    screens: {
      ready: async (page) => {
        await expectLogIn(page, {});
        // The field's suggestions are waited for once the page is the app's.
        await see('the autofill ceremony started', () => expect(page.autofills.calls).toHaveLength(1));
        expect(page.dialogs.calls).toHaveLength(0);
      },
      readyWithoutSuggestions: (page) => expectLogIn(page, {}),
      waiting: (page) => expectLogIn(page, { waiting: true }),
      cancelled: (page) => expectLogIn(page, { notice: passkeyMessages.cancelled }),
      refused: (page) => expectLogIn(page, { alert: SERVER_REFUSAL }),
      failed: (page) => expectLogIn(page, { alert: passkeyMessages.signInFailed }),
      autofillRefused: (page) => expectLogIn(page, { alert: passkeyMessages.unknownPasskey }),
      loggedInAtFrom: async (page) => {
        await seePath(page, '/profile');
        await seeLoggedIn(page.jwt);
      },
    },
  });
});
