import { assertEvent, assign, fromCallback, setup, type ActorRefFrom } from 'xstate';
import type { AuthResponse } from '../server/src/contract/auth';
import { sessionMessages } from '../server/src/contract/sessions';
import type { Session } from './services/session';
import type { NavigationRequest, ReturnPath } from './rules/navigation';
import { isNewAccount } from './rules/validation';

export const authMessages = {
  accountDeleted: 'Your account has been deleted successfully.',
  sessionExpired: 'Your session has expired. Please log in again.',
  /** The server refused the token because its session was signed out (Signed-in devices, or "Log out of all devices"). */
  signedOutElsewhere: sessionMessages.signedOutElsewhere,
  loggedOutEverywhere: 'You have been logged out of all devices.',
  passwordReset: 'Your password has been reset. You can now log in with your new password.',
} as const;

/** SPEC §2: social users whose account is under 60 seconds old start here. */
export const FIRST_RUN_ROUTE = '/bmi' as const;
/** Where notices are shown: every message the auth actor holds is for the Log In page. */
const NOTICE_PAGE = '/login' as const;

type AuthContext = {
  session: Session | null;
  /** The green notice on /login (SPEC §2: shown, then cleared); dropped when the person leaves /login or logs in. */
  notice: string | null;
};

export type AuthEvent =
  /** The router settled on a new path. */
  | { type: 'location.changed'; pathname: string }
  /**
   * Another flow sends the person to /login with a notice, e.g. a failed social callback, replacing its page in
   * history; sign-up under e-mail confirmation keeps its page (`replace: false`).
   */
  | { type: 'login.requested'; notice: string; from?: ReturnPath; replace?: false }
  /** The Log In form was submitted: its notice has been read. */
  | { type: 'notice.dismissed' }
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
  /** A social or passkey sign-in got a session: a new account goes to /bmi, others to `returnTo`, leaving no history. */
  | { type: 'session.started'; response: AuthResponse; returnTo: ReturnPath }
  /** Sign Up or Log In got a session: on to `next` (/profile, or the log-in's `from`), the form kept in history. */
  | { type: 'session.started'; response: AuthResponse; next: NavigationRequest };

function sessionFrom(response: AuthResponse): Session {
  return { jwt: response.jwt, userId: String(response.user.id) };
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
  },
});

/** Ends the session and shows /login with `notice` (the stored token and user id go first). */
function loggedOutWithNotice(notice: string, replace?: true) {
  return {
    target: '#authSession.loggedOut',
    actions: ['forgetSession', { type: 'endSession', params: { notice } }, { type: 'navigate', params: { to: NOTICE_PAGE, replace } }],
  } as const;
}

/** Where a started session goes: the form's own way on, or /bmi for a new social account, else the return path. */
function afterSignIn(event: Extract<AuthEvent, { type: 'session.started' }>): NavigationRequest {
  if ('next' in event) return event.next;
  // The sign-in page or provider callback leaves history: Back doesn't return to it.
  return isNewAccount(event.response.user.createdAt, Date.now())
    ? { to: FIRST_RUN_ROUTE, replace: true }
    : { href: event.returnTo, replace: true };
}

/**
 * The session (SPEC §4 Logged in or out): restored from storage, started by a sign-in flow, ended by Log Out,
 * by the server or by another flow, with the green notice on /login saying why.
 */
export const authSessionMachine = authSetup.createMachine({
  id: 'authSession',
  context: ({ input }) => ({ session: input.session, notice: null }),
  invoke: [{ src: 'watchSession' }, { src: 'watchLocation' }],
  initial: 'resolving',
  on: {
    'session.changed': {
      target: '.resolving',
      actions: [assign({ session: ({ event }) => event.session }), 'revalidateRoutes'],
    },
    'password.reset': loggedOutWithNotice(authMessages.passwordReset),
    'location.changed': { actions: 'dropNoticeAwayFromLogin' },
    'login.requested': {
      actions: [
        assign({ notice: ({ event }) => event.notice }),
        {
          type: 'navigate',
          params: ({ event }) => ({ to: NOTICE_PAGE, search: { from: event.from }, replace: event.replace ?? true }),
        },
      ],
    },
    'notice.dismissed': { actions: assign({ notice: null }) },
    'session.started': {
      target: '.loggedIn',
      actions: [
        assign({ session: ({ event }) => sessionFrom(event.response) }),
        { type: 'persistSession', params: ({ event }) => sessionFrom(event.response) },
        { type: 'navigate', params: ({ event }) => afterSignIn(event) },
      ],
    },
  },
  states: {
    resolving: {
      always: [{ guard: 'hasSession', target: 'loggedIn' }, { target: 'loggedOut' }],
    },
    loggedOut: {},
    loggedIn: {
      entry: assign({ notice: null }),
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
