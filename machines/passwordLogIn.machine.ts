import { assertEvent, assign, fromPromise, sendTo, setup } from 'xstate';
import type { AuthResponse, LoginPayload } from '../server/src/contract/auth';
import type { LoginResponse, TwoFactorChallenge } from '../server/src/contract/twoFactor';
import type { AuthActorRef } from './authSession.machine';
import type { ReturnPath } from './rules/navigation';
import { safeReturnPath } from './rules/returnPath';
import { errorMessage } from './services/errors';
import { formStates } from './shared/formStates';
import { LOGIN_FALLBACK, login } from './services/auth';
import { twoFactorLogInMachine } from './twoFactorLogIn.machine';

export type PasswordLogInEvent = { type: 'login.submitted'; identifier: string; password: string; returnTo: string };

type PasswordLogInContext = {
  /** The session's owner: a log-in ends by handing it the server's answer. */
  auth: AuthActorRef;
  /** Where a successful log-in goes: the form's validated `from`. */
  returnTo: ReturnPath;
  /** What the last log-in was typed with, kept for the form after the second step's Back. */
  identifier: string;
  /** The server's single-use ticket for the second step (two-factor on). */
  ticket: string | null;
  error: string | null;
};

const logInSetup = setup({
  types: {
    context: {} as PasswordLogInContext,
    events: {} as PasswordLogInEvent,
    input: {} as { auth: AuthActorRef },
    children: {} as { secondFactor: 'secondFactor' },
  },
  actors: {
    login: fromPromise<LoginResponse, LoginPayload>(({ input, signal }) => login(input, { signal })),
    secondFactor: twoFactorLogInMachine,
  },
  actions: {
    startSession: sendTo(
      ({ context }) => context.auth,
      ({ context }, response: AuthResponse) => ({ type: 'session.started', response, next: { href: context.returnTo } }),
    ),
    /** The notice on /login (e.g. why the last session ended) has been read. */
    dismissNotice: sendTo(({ context }) => context.auth, { type: 'notice.dismissed' }),
  },
  guards: {
    secondFactorAsked: (_, response: LoginResponse) => 'ticket' in response,
  },
});

// A form at rest takes a submission; a busy one ignores repeats.
const restingForm = logInSetup.createStateConfig({
  on: {
    'login.submitted': {
      target: 'submitting',
      actions: [
        'dismissNotice',
        assign({
          error: null,
          identifier: ({ event }) => event.identifier.trim(),
          returnTo: ({ event }) => safeReturnPath(event.returnTo),
        }),
      ],
    },
  },
});

// Sends the password: on to the second step or a session, or back to the form with the server's reason.
const submitting = logInSetup.createStateConfig({
  invoke: {
    // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
    id: 'login',
    src: 'login',
    input: ({ event }) => {
      assertEvent(event, 'login.submitted');
      return { identifier: event.identifier.trim(), password: event.password };
    },
    onDone: [
      {
        guard: { type: 'secondFactorAsked', params: ({ event }) => event.output },
        target: 'secondFactor',
        actions: assign({ ticket: ({ event }) => (event.output as TwoFactorChallenge).ticket }),
      },
      // The guard above took every second step: this answer is a session.
      { target: 'signedIn', actions: { type: 'startSession', params: ({ event }) => event.output as AuthResponse } },
    ],
    onError: { target: 'failure', actions: assign({ error: ({ event }) => errorMessage(event.error, LOGIN_FALLBACK) }) },
  },
});

/**
 * Log In with a password (SPEC §2, §8): POST /api/auth/local. A session goes to the auth actor, on to `from`
 * (default /); for a member with two-factor on, the server asks for a code instead and the second step
 * (twoFactorLogIn) takes over, on this page, until it signs in or the member goes Back to the password.
 */
export const passwordLogInMachine = logInSetup.createMachine({
  id: 'passwordLogIn',
  context: ({ input }) => ({
    auth: input.auth,
    // Stryker disable next-line StringLiteral: safeReturnPath gives / for any other start, and every log-in sets its own.
    returnTo: safeReturnPath('/'),
    identifier: '',
    ticket: null,
    error: null,
  }),
  initial: 'idle',
  states: {
    ...formStates(restingForm, submitting),
    /** The password was right; the code comes next. */
    secondFactor: {
      invoke: {
        id: 'secondFactor',
        src: 'secondFactor',
        // Stryker disable next-line StringLiteral: only a second step, which holds a ticket, leads here.
        input: ({ context }) => ({ auth: context.auth, ticket: context.ticket ?? '', returnTo: context.returnTo }),
        // Back to the password form, the identifier still typed; after a sign-in the page is leaving anyway.
        onDone: 'idle',
      },
    },
    signedIn: { type: 'final' },
  },
});
