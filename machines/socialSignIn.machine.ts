import { assign, fromPromise, sendTo, setup } from 'xstate';
import { errorMessage } from './services/errors';
import { FACEBOOK_CONNECT_URL, SOCIAL_FALLBACKS, exchangeIdToken } from './services/social';
import type { AuthResponse } from '../server/src/contract/auth';
import type { ReturnPath } from './rules/navigation';
import { safeReturnPath } from './rules/returnPath';
import type { AuthActorRef } from './authSession.machine';

export type PopupProvider = 'google' | 'apple';

export const PROVIDER_CANCELLED = {
  google: 'Google Sign-In was canceled or failed',
  apple: 'Apple Sign-In was canceled or failed',
} as const;

export type SocialSignInEvent =
  | { type: 'popup.requested'; provider: PopupProvider; returnTo: string }
  | { type: 'redirect.requested'; returnTo: string };

type SocialContext = {
  /** The session's owner: a sign-in ends by handing it the server's answer. */
  auth: AuthActorRef;
  provider: PopupProvider | null;
  token: string | null;
  returnTo: ReturnPath;
  error: string | null;
};

/**
 * Log In's Google, Apple and Facebook buttons. Google and Apple give an ID token in the
 * browser, which the server exchanges for a session; Facebook is a full-page redirect.
 */
export const socialSignInMachine = setup({
  types: {
    context: {} as SocialContext,
    events: {} as SocialSignInEvent,
    input: {} as { auth: AuthActorRef },
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
  // Stryker disable next-line ObjectLiteral: placeholders the app provides; XState skips a missing action the same way.
  actions: {
    saveReturnRoute: (_, _returnTo: ReturnPath) => {},
    /** Leaves the app for another page (the view gives the browser's full-page redirect). */
    redirectTo: (_, _url: string) => {},
  },
}).createMachine({
  id: 'socialSignIn',
  // Stryker disable next-line StringLiteral: safeReturnPath gives / for any other start, and every request sets its own.
  context: ({ input }) => ({ auth: input.auth, provider: null, token: null, returnTo: safeReturnPath('/'), error: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'popup.requested': {
          target: 'authorizing',
          actions: assign({
            provider: ({ event }) => event.provider,
            returnTo: ({ event }) => safeReturnPath(event.returnTo),
            error: null,
          }),
        },
        'redirect.requested': {
          target: 'redirecting',
          actions: assign({ provider: null, returnTo: ({ event }) => safeReturnPath(event.returnTo), error: null }),
        },
      },
    },
    authorizing: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'authorize',
        src: 'authorize',
        // Stryker disable next-line StringLiteral: popup.requested, the only way in, set the provider.
        input: ({ context }) => ({ provider: context.provider ?? 'google' }),
        onDone: { target: 'exchanging', actions: assign({ token: ({ event }) => event.output }) },
        onError: {
          target: 'idle',
          // Stryker disable next-line StringLiteral: popup.requested, the only way in, set the provider.
          actions: assign({ error: ({ context, event }) => errorMessage(event.error, PROVIDER_CANCELLED[context.provider ?? 'google']) }),
        },
      },
    },
    exchanging: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'exchangeToken',
        src: 'exchangeToken',
        // Stryker disable next-line StringLiteral: only a popup's ID token leads here, after popup.requested set the provider.
        input: ({ context }) => ({ provider: context.provider ?? 'google', token: context.token ?? '' }),
        onDone: {
          target: 'signedIn',
          actions: [
            assign({ token: null }),
            sendTo(
              ({ context }) => context.auth,
              ({ context, event }) => ({ type: 'session.started', response: event.output, returnTo: context.returnTo }),
            ),
          ],
        },
        onError: {
          target: 'idle',
          // Stryker disable next-line StringLiteral: popup.requested, the only way in, set the provider.
          actions: assign({ error: ({ context, event }) => errorMessage(event.error, SOCIAL_FALLBACKS[context.provider ?? 'google']) }),
        },
      },
    },
    redirecting: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'checkRedirectProvider',
        src: 'checkRedirectProvider',
        onDone: {
          target: 'leaving',
          actions: [
            { type: 'saveReturnRoute', params: ({ context }) => context.returnTo },
            { type: 'redirectTo', params: FACEBOOK_CONNECT_URL },
          ],
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
