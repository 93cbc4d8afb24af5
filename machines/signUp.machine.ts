import { assertEvent, assign, fromPromise, sendTo, setup } from 'xstate';
import { registerBody, type AuthResponse, type RegisterPayload, type RegisterResponse } from '../server/src/contract/auth';
import { firstError } from '../server/src/contract/schema';
import type { AuthActorRef } from './authSession.machine';
import { errorMessage } from './services/errors';
import { formStates } from './shared/formStates';
import { REGISTER_FALLBACK, register } from './services/auth';

/** The form's first broken rule (the contract's registerBody, which the route reads too), or null. */
export const signUpError = (fields: RegisterPayload): string | null => firstError(registerBody, fields);

/** What /login says after a sign-up (the form's own messages are the contract's signUpMessages). */
export const signUpNotices = {
  /** Sign-up under e-mail confirmation: the server made the account but gave no session. */
  confirmEmail: 'Your account has been created. Please confirm your email address using the link we sent you, then log in.',
} as const;

/** SPEC §2 Sign Up: on success the member goes to /profile. */
export const SIGN_UP_TARGET = '/profile' as const;

export type SignUpEvent = { type: 'signup.submitted'; username: string; email: string; password: string };

type SignUpContext = {
  /** The session's owner: a sign-up ends by handing it the server's answer. */
  auth: AuthActorRef;
  error: string | null;
};

const signUpSetup = setup({
  types: {
    context: {} as SignUpContext,
    events: {} as SignUpEvent,
    input: {} as { auth: AuthActorRef },
  },
  actors: {
    register: fromPromise<RegisterResponse, RegisterPayload>(({ input, signal }) => register(input, { signal })),
  },
  actions: {
    startSession: sendTo(
      ({ context }) => context.auth,
      (_, response: AuthResponse) => ({ type: 'session.started', response, next: { to: SIGN_UP_TARGET } }),
    ),
    /** Nothing to store: the member logs in once the e-mail is confirmed. */
    askToConfirm: sendTo(({ context }) => context.auth, {
      type: 'login.requested',
      notice: signUpNotices.confirmEmail,
      replace: false,
    }),
  },
  guards: {
    invalid: ({ event }) => signUpError(event) !== null,
    confirmationPending: (_, outcome: RegisterResponse) => !outcome.jwt,
  },
});

// A form at rest takes a submission: checked here first (SPEC §5), then sent; a busy one ignores repeats.
const restingForm = signUpSetup.createStateConfig({
  on: {
    'signup.submitted': [
      { guard: 'invalid', target: 'failure', actions: assign({ error: ({ event }) => signUpError(event) }) },
      { target: 'submitting', actions: assign({ error: null }) },
    ],
  },
});

// Sends the form: a session, or the ask to confirm the e-mail first, or back to the form with the server's reason.
const submitting = signUpSetup.createStateConfig({
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
        guard: { type: 'confirmationPending', params: ({ event }) => event.output },
        target: 'awaitingConfirmation',
        actions: 'askToConfirm',
      },
      {
        target: 'signedUp',
        // The guard above took every answer without a jwt.
        actions: { type: 'startSession', params: ({ event }) => event.output as AuthResponse },
      },
    ],
    onError: { target: 'failure', actions: assign({ error: ({ event }) => errorMessage(event.error, REGISTER_FALLBACK) }) },
  },
});

/**
 * Sign Up (SPEC §2, §5, §8): the form's rules, then POST /api/auth/local/register. A session goes to the auth
 * actor (on to /profile); under e-mail confirmation there is none, and /login says to confirm first.
 */
export const signUpMachine = signUpSetup.createMachine({
  id: 'signUp',
  context: ({ input }) => ({ auth: input.auth, error: null }),
  initial: 'idle',
  states: {
    ...formStates(restingForm, submitting),
    awaitingConfirmation: { type: 'final' },
    signedUp: { type: 'final' },
  },
});
