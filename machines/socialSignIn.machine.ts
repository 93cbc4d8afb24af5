import { assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../src/api/errors';
import { SOCIAL_FALLBACKS, exchangeIdToken } from '../src/api/social';
import type { AuthResponse } from '../src/api/types';
import type { NavigationRequest } from '../src/lib/navigation';
import { isNewAccount } from '../src/lib/validation';

export type PopupProvider = 'google' | 'apple';
export const FIRST_RUN_ROUTE = '/bmi';

export const PROVIDER_CANCELLED = {
  google: 'Google Sign-In was canceled or failed',
  apple: 'Apple Sign-In was canceled or failed',
} as const;

export type SocialSignInEvent =
  | { type: 'popup.requested'; provider: PopupProvider; returnTo: string }
  | { type: 'redirect.requested'; returnTo: string };

type SocialContext = { provider: PopupProvider | null; token: string | null; returnTo: string; error: string | null };

/**
 * Log In's Google, Apple and Facebook buttons. Google and Apple give an ID token in the
 * browser, which the server exchanges for a session; Facebook is a full-page redirect.
 */
export const socialSignInMachine = setup({
  types: {
    context: {} as SocialContext,
    events: {} as SocialSignInEvent,
  },
  actors: {
    /** Loads the provider's client and asks the person to sign in: the ID token. */
    authorize: fromPromise<string, { provider: PopupProvider }>(async () => {
      throw new Error('No provider client was provided');
    }),
    exchangeToken: fromPromise<AuthResponse, { provider: PopupProvider; token: string }>(({ input, signal }) =>
      exchangeIdToken(input.provider, input.token, { signal }),
    ),
    /** Checks the provider is set up before leaving the site. */
    checkRedirectProvider: fromPromise<void>(async () => {}),
  },
  actions: {
    startSession: (_, _response: AuthResponse) => {},
    navigate: (_, _request: NavigationRequest) => {},
    saveReturnRoute: (_, _returnTo: string) => {},
    redirectToProvider: () => {},
  },
}).createMachine({
  id: 'socialSignIn',
  context: { provider: null, token: null, returnTo: '/', error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'popup.requested': {
          target: 'authorizing',
          actions: assign({ provider: ({ event }) => event.provider, returnTo: ({ event }) => event.returnTo, error: null }),
        },
        'redirect.requested': {
          target: 'redirecting',
          actions: assign({ provider: null, returnTo: ({ event }) => event.returnTo, error: null }),
        },
      },
    },
    authorizing: {
      tags: ['busy'],
      invoke: {
        id: 'authorize',
        src: 'authorize',
        input: ({ context }) => ({ provider: context.provider ?? 'google' }),
        onDone: { target: 'exchanging', actions: assign({ token: ({ event }) => event.output }) },
        onError: {
          target: 'idle',
          actions: assign({ error: ({ context, event }) => errorMessage(event.error, PROVIDER_CANCELLED[context.provider ?? 'google']) }),
        },
      },
    },
    exchanging: {
      tags: ['busy'],
      invoke: {
        id: 'exchangeToken',
        src: 'exchangeToken',
        input: ({ context }) => ({ provider: context.provider ?? 'google', token: context.token ?? '' }),
        onDone: {
          target: 'signedIn',
          actions: [
            assign({ token: null }),
            { type: 'startSession', params: ({ event }) => event.output },
            {
              type: 'navigate',
              params: ({ context, event }) => ({
                href: isNewAccount(event.output.user.createdAt, Date.now()) ? FIRST_RUN_ROUTE : context.returnTo,
              }),
            },
          ],
        },
        onError: {
          target: 'idle',
          actions: assign({ error: ({ context, event }) => errorMessage(event.error, SOCIAL_FALLBACKS[context.provider ?? 'google']) }),
        },
      },
    },
    redirecting: {
      tags: ['busy'],
      invoke: {
        id: 'checkRedirectProvider',
        src: 'checkRedirectProvider',
        onDone: {
          target: 'leaving',
          actions: [{ type: 'saveReturnRoute', params: ({ context }) => context.returnTo }, 'redirectToProvider'],
        },
        onError: {
          target: 'idle',
          actions: assign({ error: ({ event }) => errorMessage(event.error, 'Facebook sign-in is unavailable right now.') }),
        },
      },
    },
    leaving: { tags: ['busy'], type: 'final' },
    signedIn: { type: 'final' },
  },
});
