import { assertEvent, assign, fromCallback, fromPromise, setup, type ActorRefFrom } from 'xstate';
import { LOGIN_FALLBACK, REGISTER_FALLBACK, login, register, type LoginPayload, type RegisterPayload } from '../src/api/auth';
import { errorMessage } from '../src/api/errors';
import type { AuthResponse } from '../src/api/types';
import type { Session } from '../src/auth/session';
import type { NavigationRequest } from '../src/lib/navigation';
import { safeReturnPath } from '../src/lib/returnPath';
import { signUpError } from '../src/lib/validation';

export const authMessages = {
  accountDeleted: 'Your account has been deleted successfully.',
  sessionExpired: 'Your session has expired. Please log in again.',
  loggedOutEverywhere: 'You have been logged out of all devices.',
  passwordReset: 'Your password has been reset. You can now log in with your new password.',
} as const;

export const SIGN_UP_TARGET = '/profile';

type AuthContext = {
  session: Session | null;
  /** Where a successful login goes; set by the login form from its validated `from`. */
  returnTo: string;
  error: string | null;
  notice: string | null;
};

export type AuthEvent =
  | { type: 'signup.submitted'; username: string; email: string; password: string }
  | { type: 'login.submitted'; identifier: string; password: string; returnTo: string }
  | { type: 'form.opened'; notice?: string }
  | { type: 'logout' }
  | { type: 'session.expired' }
  | { type: 'account.deleted' }
  /** The password changed: the server revoked the stored token and issued this one (null: none came). */
  | { type: 'session.tokenRenewed'; jwt: string | null }
  /** The member logged out of all devices: the server revoked every token, this one included. */
  | { type: 'session.revokedEverywhere' }
  /** A password was reset, which revokes every token of that account: forget ours and go to /login. */
  | { type: 'password.reset' }
  | { type: 'session.changed'; session: Session | null }
  /** A social sign-in or callback got a session from the server. */
  | { type: 'session.started'; response: AuthResponse };

function sessionFrom(response: AuthResponse): Session {
  return { jwt: response.jwt, userId: String(response.user.id) };
}

/** The same member with the token that replaced the revoked one (the guard has checked there is one). */
function renewedSession(session: Session | null, jwt: string | null): Session {
  return { jwt: jwt ?? '', userId: session?.userId ?? '' };
}

const authSetup = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as { session: Session | null },
  },
  actors: {
    register: fromPromise<AuthResponse, RegisterPayload>(({ input, signal }) => register(input, { signal })),
    login: fromPromise<AuthResponse, LoginPayload>(({ input, signal }) => login(input, { signal })),
    // Other tabs' storage changes and refused tokens reach the machine through this actor.
    watchSession: fromCallback<AuthEvent>(() => () => {}),
  },
  actions: {
    persistSession: (_, _session: Session) => {},
    forgetSession: () => {},
    navigate: (_, _request: NavigationRequest) => {},
    revalidateRoutes: () => {},
    clearMessages: assign({ error: null, notice: null }),
  },
  guards: {
    hasSession: ({ context }) => context.session !== null,
    hasRenewedToken: ({ event }) => {
      assertEvent(event, 'session.tokenRenewed');
      return event.jwt !== null;
    },
    signUpInvalid: ({ event }) => {
      assertEvent(event, 'signup.submitted');
      return signUpError(event) !== null;
    },
  },
});

// Only a form at rest takes a submission; a busy one ignores repeats.
const restingForm = authSetup.createStateConfig({
  on: {
    'signup.submitted': [
      {
        guard: 'signUpInvalid',
        target: '#authSession.loggedOut.failure',
        actions: authSetup.assign({
          error: ({ event }) => {
            assertEvent(event, 'signup.submitted');
            return signUpError(event);
          },
          notice: null,
        }),
      },
      { target: '#authSession.loggedOut.signingUp', actions: 'clearMessages' },
    ],
    'login.submitted': {
      target: '#authSession.loggedOut.loggingIn',
      actions: [
        'clearMessages',
        authSetup.assign({
          returnTo: ({ event }) => {
            assertEvent(event, 'login.submitted');
            return safeReturnPath(event.returnTo);
          },
        }),
      ],
    },
    'form.opened': {
      target: '#authSession.loggedOut.idle',
      actions: authSetup.assign({
        error: null,
        notice: ({ event }) => {
          assertEvent(event, 'form.opened');
          return event.notice ?? null;
        },
      }),
    },
  },
});

export const authSessionMachine = authSetup.createMachine({
  id: 'authSession',
  context: ({ input }) => ({ session: input.session, returnTo: '/', error: null, notice: null }),
  invoke: { src: 'watchSession' },
  initial: 'resolving',
  on: {
    'session.changed': {
      target: '.resolving',
      actions: [
        assign({
          session: ({ event }) => event.session,
          error: null,
        }),
        'revalidateRoutes',
      ],
    },
    'password.reset': {
      target: '.loggedOut',
      actions: [
        'forgetSession',
        assign({ session: null }),
        { type: 'navigate', params: { href: '/login', message: authMessages.passwordReset } },
      ],
    },
  },
  states: {
    resolving: {
      always: [{ guard: 'hasSession', target: 'loggedIn' }, { target: 'loggedOut' }],
    },
    loggedOut: {
      on: {
        'session.started': {
          target: 'loggedIn',
          actions: [
            assign({ session: ({ event }) => sessionFrom(event.response) }),
            { type: 'persistSession', params: ({ event }) => sessionFrom(event.response) },
          ],
        },
      },
      initial: 'idle',
      states: {
        idle: restingForm,
        failure: restingForm,
        signingUp: {
          tags: ['busy'],
          invoke: {
            id: 'register',
            src: 'register',
            input: ({ event }) => {
              assertEvent(event, 'signup.submitted');
              return { username: event.username.trim(), email: event.email.trim(), password: event.password };
            },
            onDone: {
              target: '#authSession.loggedIn',
              actions: [
                assign({ session: ({ event }) => sessionFrom(event.output) }),
                { type: 'persistSession', params: ({ event }) => sessionFrom(event.output) },
                { type: 'navigate', params: { href: SIGN_UP_TARGET } },
              ],
            },
            onError: {
              target: 'failure',
              actions: assign({ error: ({ event }) => errorMessage(event.error, REGISTER_FALLBACK) }),
            },
          },
        },
        loggingIn: {
          tags: ['busy'],
          invoke: {
            id: 'login',
            src: 'login',
            input: ({ event }) => {
              assertEvent(event, 'login.submitted');
              return { identifier: event.identifier.trim(), password: event.password };
            },
            onDone: {
              target: '#authSession.loggedIn',
              actions: [
                assign({ session: ({ event }) => sessionFrom(event.output) }),
                { type: 'persistSession', params: ({ event }) => sessionFrom(event.output) },
                {
                  type: 'navigate',
                  params: ({ context }) => ({ href: context.returnTo }),
                },
              ],
            },
            onError: {
              target: 'failure',
              actions: assign({ error: ({ event }) => errorMessage(event.error, LOGIN_FALLBACK) }),
            },
          },
        },
      },
    },
    loggedIn: {
      entry: 'clearMessages',
      on: {
        logout: {
          target: 'loggedOut',
          actions: ['forgetSession', assign({ session: null }), 'revalidateRoutes'],
        },
        'session.expired': {
          target: 'loggedOut',
          actions: [
            'forgetSession',
            assign({ session: null }),
            { type: 'navigate', params: { href: '/login', message: authMessages.sessionExpired } },
          ],
        },
        'account.deleted': {
          target: 'loggedOut',
          actions: [
            'forgetSession',
            assign({ session: null }),
            { type: 'navigate', params: { href: '/login', message: authMessages.accountDeleted, replace: true } },
          ],
        },
        'session.revokedEverywhere': {
          target: 'loggedOut',
          actions: [
            'forgetSession',
            assign({ session: null }),
            { type: 'navigate', params: { href: '/login', message: authMessages.loggedOutEverywhere, replace: true } },
          ],
        },
        'session.tokenRenewed': [
          {
            guard: 'hasRenewedToken',
            actions: [
              assign({ session: ({ context, event }) => renewedSession(context.session, event.jwt) }),
              { type: 'persistSession', params: ({ context, event }) => renewedSession(context.session, event.jwt) },
            ],
          },
          {
            // The old token is revoked and no new one came: keeping it would only fail later.
            target: 'loggedOut',
            actions: [
              'forgetSession',
              assign({ session: null }),
              { type: 'navigate', params: { href: '/login', message: authMessages.sessionExpired } },
            ],
          },
        ],
      },
    },
  },
});

export type AuthActorRef = ActorRefFrom<typeof authSessionMachine>;
