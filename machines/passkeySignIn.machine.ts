import { assign, fromPromise, sendTo, setup } from 'xstate';
import type { AuthResponse } from '../server/src/contract/auth';
import { passkeyMessages } from '../server/src/contract/passkeys';
import type { AuthActorRef } from './authSession.machine';
import type { ReturnPath } from './rules/navigation';
import { safeReturnPath } from './rules/returnPath';
import { errorMessage } from './services/errors';
import { signInWithPasskey } from './services/passkeys';

export type PasskeySignInEvent = { type: 'autofill.requested'; returnTo: string } | { type: 'passkey.requested'; returnTo: string };

type PasskeySignInContext = {
  /** The session's owner: a sign-in ends by handing it the server's answer. */
  auth: AuthActorRef;
  returnTo: ReturnPath;
  error: string | null;
  notice: string | null;
};

/** The member closed the browser's passkey dialog: said calmly, not as an error. */
const cancelledByMember = (error: unknown) => error instanceof Error && error.name === 'PasskeyCancelledError';

/**
 * Log In with a passkey: "Sign in with a passkey" (the browser's dialog), or a passkey picked from the
 * identifier field's suggestions (autofill, waiting in the background while the form is used). The
 * server's session goes to the auth actor like any other sign-in.
 */
export const passkeySignInMachine = setup({
  types: {
    context: {} as PasskeySignInContext,
    events: {} as PasskeySignInEvent,
    input: {} as { auth: AuthActorRef },
  },
  actors: {
    /** The browser's passkey dialog, then the server's session. */
    signIn: fromPromise<AuthResponse>(({ signal }) => signInWithPasskey({ signal })),
    /** Waits for a passkey picked in the field's suggestions (a cancellation where the browser cannot offer them). */
    autofill: fromPromise<AuthResponse>(({ signal }) => signInWithPasskey({ signal, autofill: true })),
  },
  actions: {
    startSession: sendTo(
      ({ context }) => context.auth,
      ({ context }, response: AuthResponse) => ({ type: 'session.started', response, returnTo: context.returnTo }),
    ),
  },
  guards: {
    cancelledByMember: ({ event }) => 'error' in event && cancelledByMember(event.error),
  },
}).createMachine({
  id: 'passkeySignIn',
  // Stryker disable next-line StringLiteral: safeReturnPath gives / for any other start, and every request sets its own.
  context: ({ input }) => ({ auth: input.auth, returnTo: safeReturnPath('/'), error: null, notice: null }),
  initial: 'idle',
  on: {
    'passkey.requested': {
      target: '.signingIn',
      actions: assign({ returnTo: ({ event }) => safeReturnPath(event.returnTo), error: null, notice: null }),
    },
  },
  states: {
    idle: {
      on: {
        'autofill.requested': { target: 'autofill', actions: assign({ returnTo: ({ event }) => safeReturnPath(event.returnTo) }) },
      },
    },
    autofill: {
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'autofill',
        src: 'autofill',
        onDone: { target: 'signedIn', actions: { type: 'startSession', params: ({ event }) => event.output } },
        onError: [
          // The suggestions were dismissed or replaced: nothing to say.
          { guard: 'cancelledByMember', target: 'idle' },
          { target: 'idle', actions: assign({ error: ({ event }) => errorMessage(event.error, passkeyMessages.signInFailed) }) },
        ],
      },
    },
    signingIn: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'signIn',
        src: 'signIn',
        onDone: { target: 'signedIn', actions: { type: 'startSession', params: ({ event }) => event.output } },
        onError: [
          { guard: 'cancelledByMember', target: 'idle', actions: assign({ notice: passkeyMessages.cancelled }) },
          { target: 'idle', actions: assign({ error: ({ event }) => errorMessage(event.error, passkeyMessages.signInFailed) }) },
        ],
      },
    },
    signedIn: { type: 'final' },
  },
});
