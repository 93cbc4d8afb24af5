import { assertEvent, assign, fromCallback, fromPromise, setup, type ActorRefFrom } from 'xstate';
import { LOGIN_FALLBACK, REGISTER_FALLBACK } from './services/authFallbacks';
import type { LoginPayload, RegisterPayload } from '../server/src/contract/auth';
import { errorMessage } from './services/errors';
import type { AuthResponse } from '../server/src/contract/auth';
import { sessionMessages } from '../server/src/contract/sessions';
import type { LoginResponse, TwoFactorChallenge, TwoFactorLoginPayload } from '../server/src/contract/twoFactor';
import type { Session } from './services/session';
import type { NavigationRequest, ReturnPath } from './rules/navigation';
import { safeReturnPath } from './rules/returnPath';
import { isNewAccount, signUpError } from './rules/validation';

export const authMessages = {
  accountDeleted: 'Your account has been deleted successfully.',
  sessionExpired: 'Your session has expired. Please log in again.',
  /** The server refused the token because its session was signed out (Signed-in devices, or "Log out of all devices"). */
  signedOutElsewhere: sessionMessages.signedOutElsewhere,
  loggedOutEverywhere: 'You have been logged out of all devices.',
  passwordReset: 'Your password has been reset. You can now log in with your new password.',
  /** Sign-up under e-mail confirmation: the server made the account but gave no session. */
  confirmEmail: 'Your account has been created. Please confirm your email address using the link we sent you, then log in.',
} as const;

export const SIGN_UP_TARGET = '/profile' as const;
/** SPEC §2: social users whose account is under 60 seconds old start here. */
export const FIRST_RUN_ROUTE = '/bmi' as const;
/** Where notices are shown: every message the auth actor holds is for the Log In page. */
const NOTICE_PAGE = '/login' as const;

type AuthContext = {
  session: Session | null;
  /** Where a successful login goes; set by the login form from its validated `from`. */
  returnTo: ReturnPath;
  error: string | null;
  /** The green notice on /login (SPEC §2: shown, then cleared); dropped when the person leaves /login. */
  notice: string | null;
  /** A password log-in waiting for its second factor (two-factor on): the server's single-use ticket. */
  ticket: string | null;
  /** What the last log-in was typed with, kept for the form after the second step's Back; dropped once logged in. */
  identifier: string;
};

export type AuthEvent =
  | { type: 'signup.submitted'; username: string; email: string; password: string }
  | { type: 'login.submitted'; identifier: string; password: string; returnTo: string }
  /** The second step of a log-in: a code from the authenticator app, or a recovery code. */
  | { type: 'twoFactor.submitted'; code: string }
  /** Back to the password form from the second step. */
  | { type: 'twoFactor.cancelled' }
  /** The router settled on a new path. */
  | { type: 'location.changed'; pathname: string }
  /** Another flow sends the person to /login with a notice, e.g. a failed social callback. */
  | { type: 'login.requested'; notice: string; from?: ReturnPath }
  | { type: 'logout' }
  | { type: 'session.expired' }
  /** The server refused the token: its session was signed out from another device. */
  | { type: 'session.signedOutElsewhere' }
  | { type: 'account.deleted' }
  /** The password changed: the server revoked the stored token and issued this one (null: none came). */
  | { type: 'session.tokenRenewed'; jwt: string | null }
  /** The member logged out of all devices: the server revoked every token, this one included. */
  | { type: 'session.revokedEverywhere' }
  /** A password was reset, which revokes every token of that account: forget ours and go to /login. */
  | { type: 'password.reset' }
  | { type: 'session.changed'; session: Session | null }
  /** A social sign-in or callback got a session from the server; a new account goes to /bmi, others to `returnTo`. */
  | { type: 'session.started'; response: AuthResponse; returnTo: ReturnPath };

/** Strapi answers sign-up under e-mail confirmation with the user only: no jwt, no session. */
export type RegisterOutcome = AuthResponse | { jwt?: undefined; user: AuthResponse['user'] };

function sessionFrom(response: AuthResponse): Session {
  return { jwt: response.jwt, userId: String(response.user.id) };
}

function sessionFromOutcome(outcome: RegisterOutcome): Session {
  // Stryker disable next-line StringLiteral: only called once confirmationPending found a jwt.
  return { jwt: outcome.jwt ?? '', userId: String(outcome.user.id) };
}

/** The same member with the token that replaced the revoked one (the guard has checked there is one). */
function renewedSession(session: Session | null, jwt: string | null): Session {
  // Stryker disable next-line StringLiteral,OptionalChaining: only called logged in (every way in sets a session) with a renewed token.
  return { jwt: jwt ?? '', userId: session?.userId ?? '' };
}

const authSetup = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as { session: Session | null },
  },
  actors: {
    // The API client loads with the first call, not with the first paint.
    register: fromPromise<RegisterOutcome, RegisterPayload>(async ({ input, signal }) =>
      (await import('./services/auth')).register(input, { signal }),
    ),
    // The password, or the second step's ticket and code (two-factor on): both answer a session or the second step.
    login: fromPromise<LoginResponse, LoginPayload | TwoFactorLoginPayload>(async ({ input, signal }) =>
      (await import('./services/auth')).login(input, { signal }),
    ),
    // Other tabs' storage changes and refused tokens reach the machine through this actor.
    // Stryker disable next-line ArrowFunction: a placeholder the app provides; no cleanup is the same as an empty one.
    watchSession: fromCallback<AuthEvent>(() => () => {}),
    // The router's settled paths reach the machine through this actor, as `location.changed`.
    // Stryker disable next-line ArrowFunction: a placeholder the app provides; no cleanup is the same as an empty one.
    watchLocation: fromCallback<AuthEvent>(() => () => {}),
  },
  actions: {
    persistSession: (_, _session: Session) => {},
    forgetSession: () => {},
    navigate: (_, _request: NavigationRequest) => {},
    revalidateRoutes: () => {},
    clearMessages: assign({ error: null, notice: null }),
    showNotice: assign((_, notice: string) => ({ error: null, notice })),
    /** The session is over; /login will say why. */
    endSession: assign((_, { notice }: { notice: string }) => ({ session: null, notice })),
    /** The notice belongs to /login: leaving it drops the notice, as SPEC §2's "then cleared". */
    dropNoticeAwayFromLogin: assign({
      notice: ({ context, event }) => {
        assertEvent(event, 'location.changed');
        return event.pathname === NOTICE_PAGE ? context.notice : null;
      },
    }),
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
    confirmationPending: (_, outcome: RegisterOutcome) => !outcome.jwt,
    // Checked by shape, not with the contract's helper or ApiError's class: the first paint carries this machine.
    secondFactorAsked: (_, response: LoginResponse) => 'ticket' in response,
  },
});

/** Ends the session and shows /login with `notice` (the stored token and user id go first). */
function loggedOutWithNotice(notice: string, replace?: true) {
  return {
    target: '#authSession.loggedOut',
    actions: ['forgetSession', { type: 'endSession', params: { notice } }, { type: 'navigate', params: { to: NOTICE_PAGE, replace } }],
  } as const;
}

type LoginRequest = { event: Extract<AuthEvent, { type: 'login.requested' }> };

/** Shows /login with the requesting flow's notice (and its `from`). */
function loginRequested(target?: '#authSession.loggedOut.idle') {
  return {
    target,
    actions: [
      { type: 'showNotice', params: ({ event }: LoginRequest) => event.notice },
      {
        type: 'navigate',
        params: ({ event }: LoginRequest) => ({ to: NOTICE_PAGE, search: { from: event.from }, replace: true }),
      },
    ],
  } as const;
}

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
          // A new password log-in: no second step is pending.
          ticket: null,
          identifier: ({ event }) => {
            assertEvent(event, 'login.submitted');
            return event.identifier.trim();
          },
          returnTo: ({ event }) => {
            assertEvent(event, 'login.submitted');
            return safeReturnPath(event.returnTo);
          },
        }),
      ],
    },
    // A form's error stays on its page: another page starts clean.
    'location.changed': {
      target: '#authSession.loggedOut.idle',
      actions: [authSetup.assign({ error: null }), 'dropNoticeAwayFromLogin'],
    },
  },
});

export const authSessionMachine = authSetup.createMachine({
  id: 'authSession',
  context: ({ input }) => ({
    session: input.session,
    // Stryker disable next-line StringLiteral: safeReturnPath gives / for any other start, and every login sets its own.
    returnTo: safeReturnPath('/'),
    error: null,
    notice: null,
    ticket: null,
    identifier: '',
  }),
  invoke: [{ src: 'watchSession' }, { src: 'watchLocation' }],
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
    'password.reset': loggedOutWithNotice(authMessages.passwordReset),
    'location.changed': { actions: 'dropNoticeAwayFromLogin' },
    'login.requested': loginRequested(),
    'session.started': {
      target: '.loggedIn',
      actions: [
        assign({ session: ({ event }) => sessionFrom(event.response) }),
        { type: 'persistSession', params: ({ event }) => sessionFrom(event.response) },
        {
          type: 'navigate',
          params: ({ event }) =>
            // The sign-in page or provider callback leaves history: Back doesn't return to it.
            isNewAccount(event.response.user.createdAt, Date.now())
              ? { to: FIRST_RUN_ROUTE, replace: true }
              : { href: event.returnTo, replace: true },
        },
      ],
    },
  },
  states: {
    resolving: {
      always: [{ guard: 'hasSession', target: 'loggedIn' }, { target: 'loggedOut' }],
    },
    loggedOut: {
      // A fresh Log In form under the notice, whatever the form was doing.
      on: { 'login.requested': loginRequested('#authSession.loggedOut.idle') },
      initial: 'idle',
      states: {
        idle: restingForm,
        failure: restingForm,
        signingUp: {
          tags: ['busy'],
          invoke: {
            // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
            id: 'register',
            src: 'register',
            input: ({ event }) => {
              assertEvent(event, 'signup.submitted');
              return { username: event.username.trim(), email: event.email.trim(), password: event.password };
            },
            onDone: [
              {
                // Nothing to store: the member logs in once the e-mail is confirmed.
                guard: { type: 'confirmationPending', params: ({ event }) => event.output },
                target: 'idle',
                actions: [assign({ notice: authMessages.confirmEmail }), { type: 'navigate', params: { to: NOTICE_PAGE } }],
              },
              {
                target: '#authSession.loggedIn',
                actions: [
                  assign({ session: ({ event }) => sessionFromOutcome(event.output) }),
                  { type: 'persistSession', params: ({ event }) => sessionFromOutcome(event.output) },
                  { type: 'navigate', params: { to: SIGN_UP_TARGET } },
                ],
              },
            ],
            onError: {
              target: 'failure',
              actions: assign({ error: ({ event }) => errorMessage(event.error, REGISTER_FALLBACK) }),
            },
          },
        },
        loggingIn: {
          tags: ['busy'],
          invoke: {
            // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
            id: 'login',
            src: 'login',
            input: ({ context, event }) => {
              // Stryker disable next-line StringLiteral: only the second step, which holds a ticket, sends twoFactor.submitted.
              if (event.type === 'twoFactor.submitted') return { ticket: context.ticket ?? '', code: event.code.trim() };
              assertEvent(event, 'login.submitted');
              return { identifier: event.identifier.trim(), password: event.password };
            },
            onDone: [
              {
                guard: { type: 'secondFactorAsked', params: ({ event }) => event.output },
                target: 'secondFactor',
                actions: assign({ ticket: ({ event }) => (event.output as TwoFactorChallenge).ticket }),
              },
              {
                // The guard above took every second step: this answer is a session (a cast, not a check: the first paint carries this).
                target: '#authSession.loggedIn',
                actions: [
                  assign({ session: ({ event }) => sessionFrom(event.output as AuthResponse) }),
                  { type: 'persistSession', params: ({ event }) => sessionFrom(event.output as AuthResponse) },
                  { type: 'navigate', params: ({ context }) => ({ href: context.returnTo }) },
                ],
              },
            ],
            onError: [
              {
                // A refused code keeps the second step with the server's message; so does a void ticket ("Your log-in has
                // expired." or "Too many wrong codes. Please log in again."), where Back leads to the password form with the
                // identifier still typed (kept small: the first paint carries this).
                guard: ({ context }) => context.ticket !== null,
                target: 'secondFactor',
                actions: assign({ error: ({ event }) => errorMessage(event.error, LOGIN_FALLBACK) }),
              },
              {
                target: 'failure',
                actions: assign({ error: ({ event }) => errorMessage(event.error, LOGIN_FALLBACK) }),
              },
            ],
          },
        },
        /** The password was right; the code comes next (its error, if any, in `error`). */
        secondFactor: {
          on: {
            'twoFactor.submitted': { target: 'loggingIn', actions: 'clearMessages' },
            // Back to the password form; the ticket and its error are no longer shown and the next log-in replaces them.
            'twoFactor.cancelled': 'idle',
            'location.changed': 'idle',
          },
        },
      },
    },
    loggedIn: {
      entry: ['clearMessages', assign({ identifier: '' })],
      on: {
        logout: {
          target: 'loggedOut',
          actions: ['forgetSession', assign({ session: null }), 'revalidateRoutes'],
        },
        'session.expired': loggedOutWithNotice(authMessages.sessionExpired),
        'session.signedOutElsewhere': loggedOutWithNotice(authMessages.signedOutElsewhere),
        'account.deleted': loggedOutWithNotice(authMessages.accountDeleted, true),
        'session.revokedEverywhere': loggedOutWithNotice(authMessages.loggedOutEverywhere, true),
        'session.tokenRenewed': [
          {
            guard: 'hasRenewedToken',
            actions: [
              assign({ session: ({ context, event }) => renewedSession(context.session, event.jwt) }),
              { type: 'persistSession', params: ({ context, event }) => renewedSession(context.session, event.jwt) },
            ],
          },
          // The old token is revoked and no new one came: keeping it would only fail later.
          loggedOutWithNotice(authMessages.sessionExpired),
        ],
      },
    },
  },
});

export type AuthActorRef = ActorRefFrom<typeof authSessionMachine>;
