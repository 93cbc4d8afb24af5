import { assertEvent, assign, fromPromise, sendTo, setup } from 'xstate';
import { FORGOT_PASSWORD_FALLBACK, RESET_PASSWORD_FALLBACK, forgotPassword, resetPassword } from './services/passwordReset';
import type { ResetPasswordPayload } from '../server/src/contract/auth';
import { errorMessage } from './services/errors';
import { resetCodeError, resetRequestError } from '../server/src/contract/passwords';
import type { AuthActorRef } from './authSession.machine';

type ResetContext = {
  auth: AuthActorRef;
  email: string;
  /** Prefilled from the link in the e-mail (?code=...). */
  code: string;
  error: string | null;
  codeSent: boolean;
};

export type PasswordResetEvent =
  | { type: 'email.submitted'; email: string }
  | { type: 'reset.submitted'; code: string; password: string; passwordConfirmation: string }
  | { type: 'code.requestedAgain' };

export const passwordResetMachine = setup({
  types: {
    context: {} as ResetContext,
    events: {} as PasswordResetEvent,
    input: {} as { code?: string; auth: AuthActorRef },
  },
  actors: {
    requestCode: fromPromise<void, { email: string }>(({ input, signal }) => forgotPassword(input, { signal })),
    resetPassword: fromPromise<void, ResetPasswordPayload>(({ input, signal }) => resetPassword(input, { signal })),
  },
  guards: {
    hasCode: ({ context }) => context.code.length > 0,
    emailInvalid: ({ event }) => {
      assertEvent(event, 'email.submitted');
      return resetRequestError(event.email) !== null;
    },
    resetInvalid: ({ event }) => {
      assertEvent(event, 'reset.submitted');
      return resetCodeError(event) !== null;
    },
  },
}).createMachine({
  id: 'passwordReset',
  // Stryker disable next-line StringLiteral: the address shows only once a code went to it, which sets it.
  context: ({ input }) => ({ auth: input.auth, email: '', code: input.code?.trim() ?? '', error: null, codeSent: false }),
  initial: 'start',
  states: {
    start: {
      always: [{ guard: 'hasCode', target: 'codeEntry' }, { target: 'emailEntry' }],
    },
    emailEntry: {
      initial: 'idle',
      states: {
        idle: {},
        failure: {},
        sending: {
          tags: ['busy'],
          // A repeated submission while the request runs is ignored.
          on: { 'email.submitted': {} },
          invoke: {
            // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
            id: 'requestCode',
            src: 'requestCode',
            input: ({ context }) => ({ email: context.email }),
            onDone: {
              target: '#passwordReset.codeEntry',
              actions: assign({ codeSent: true, error: null }),
            },
            onError: {
              target: 'failure',
              actions: assign({ error: ({ event }) => errorMessage(event.error, FORGOT_PASSWORD_FALLBACK) }),
            },
          },
        },
      },
      on: {
        'email.submitted': [
          {
            guard: 'emailInvalid',
            target: '.failure',
            actions: assign({ error: ({ event }) => resetRequestError(event.email) }),
          },
          {
            target: '.sending',
            actions: assign({ email: ({ event }) => event.email.trim(), error: null }),
          },
        ],
      },
    },
    codeEntry: {
      initial: 'idle',
      states: {
        idle: {},
        failure: {},
        resetting: {
          tags: ['busy'],
          on: { 'reset.submitted': {}, 'code.requestedAgain': {} },
          invoke: {
            // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
            id: 'resetPassword',
            src: 'resetPassword',
            input: ({ event }) => {
              assertEvent(event, 'reset.submitted');
              return { code: event.code.trim(), password: event.password, passwordConfirmation: event.passwordConfirmation };
            },
            onDone: { target: '#passwordReset.done' },
            onError: {
              target: 'failure',
              actions: assign({ error: ({ event }) => errorMessage(event.error, RESET_PASSWORD_FALLBACK) }),
            },
          },
        },
      },
      on: {
        'reset.submitted': [
          {
            guard: 'resetInvalid',
            target: '.failure',
            actions: assign({ error: ({ event }) => resetCodeError(event) }),
          },
          {
            target: '.resetting',
            actions: assign({ code: ({ event }) => event.code.trim(), error: null }),
          },
        ],
        'code.requestedAgain': {
          target: 'emailEntry',
          actions: assign({ error: null, codeSent: false }),
        },
      },
    },
    done: {
      type: 'final',
      // A reset revokes every token of the account: the auth actor forgets any stored one, then shows /login.
      entry: sendTo(({ context }) => context.auth, { type: 'password.reset' }),
    },
  },
});
