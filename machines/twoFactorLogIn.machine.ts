import { assertEvent, assign, fromPromise, sendTo, setup } from 'xstate';
import type { AuthResponse } from '../server/src/contract/auth';
import type { TwoFactorLoginPayload } from '../server/src/contract/twoFactor';
import type { AuthActorRef } from './authSession.machine';
import type { ReturnPath } from './rules/navigation';
import { errorMessage } from './services/errors';
import { LOGIN_FALLBACK, loginWithCode } from './services/auth';

export type TwoFactorLogInEvent =
  /** A code from the authenticator app, or a recovery code. */
  | { type: 'twoFactor.submitted'; code: string }
  /** Back to the password form. */
  | { type: 'twoFactor.cancelled' };

type TwoFactorLogInContext = {
  /** The session's owner: the second step ends by handing it the server's answer. */
  auth: AuthActorRef;
  /** The server's single-use ticket for this log-in. */
  ticket: string;
  returnTo: ReturnPath;
  error: string | null;
};

export type TwoFactorLogInInput = { auth: AuthActorRef; ticket: string; returnTo: ReturnPath };

const twoFactorSetup = setup({
  types: {
    context: {} as TwoFactorLogInContext,
    events: {} as TwoFactorLogInEvent,
    input: {} as TwoFactorLogInInput,
  },
  actors: {
    loginWithCode: fromPromise<AuthResponse, TwoFactorLoginPayload>(({ input, signal }) => loginWithCode(input, { signal })),
  },
  actions: {
    startSession: sendTo(
      ({ context }) => context.auth,
      ({ context }, response: AuthResponse) => ({ type: 'session.started', response, next: { href: context.returnTo } }),
    ),
  },
});

// The step at rest takes a code, or Back; a busy one ignores both.
const restingStep = twoFactorSetup.createStateConfig({
  on: {
    'twoFactor.submitted': { target: 'submitting', actions: assign({ error: null }) },
    'twoFactor.cancelled': 'cancelled',
  },
});

/**
 * The second step of a log-in with two-factor on (issue 23): the ticket and a code go to
 * POST /api/auth/two-factor; the session goes to the auth actor, on to the log-in's `from`. A refused code,
 * a void ticket ('Your log-in has expired.') or a burnt one ('Too many wrong codes.') keeps the step with the
 * server's words; Back ends it, and the password form comes back.
 */
export const twoFactorLogInMachine = twoFactorSetup.createMachine({
  id: 'twoFactorLogIn',
  context: ({ input }) => ({ ...input, error: null }),
  initial: 'idle',
  states: {
    idle: restingStep,
    failure: restingStep,
    submitting: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'loginWithCode',
        src: 'loginWithCode',
        input: ({ context, event }) => {
          assertEvent(event, 'twoFactor.submitted');
          return { ticket: context.ticket, code: event.code.trim() };
        },
        onDone: { target: 'signedIn', actions: { type: 'startSession', params: ({ event }) => event.output } },
        onError: { target: 'failure', actions: assign({ error: ({ event }) => errorMessage(event.error, LOGIN_FALLBACK) }) },
      },
    },
    signedIn: { type: 'final' },
    cancelled: { type: 'final' },
  },
});
