import { assertEvent, assign, fromPromise, sendTo, setup } from 'xstate';
import { errorMessage } from './services/errors';
import { SUCCESS_NOTICE_MS, successNotice } from './shared/notice';
import { CHANGE_PASSWORD_FALLBACK, changePassword } from './services/users';
import type { ChangePasswordPayload } from '../server/src/contract/auth';
import { passwordChangeError } from '../server/src/contract/profileRules';
import type { AuthActorRef } from './authSession.machine';

export const PASSWORD_CHANGED_MESSAGE = 'Password changed successfully!';

export type PasswordChangeEvent =
  | { type: 'panel.toggled' }
  | { type: 'change.cancelled' }
  | { type: 'change.submitted'; fields: ChangePasswordPayload };

/**
 * The Change Password panel: closing it (Cancel or toggle) clears its fields. A change revokes every
 * earlier token, so the fresh one the server answers goes to the auth actor, which stores it.
 */
export const passwordChangeMachine = setup({
  types: {
    context: {} as { auth: AuthActorRef; error: string | null },
    events: {} as PasswordChangeEvent,
    input: {} as { auth: AuthActorRef },
  },
  actors: {
    changePassword: fromPromise<string | null, ChangePasswordPayload>(({ input, signal }) => changePassword(input, { signal })),
  },
  delays: {
    successMessage: SUCCESS_NOTICE_MS,
  },
  guards: {
    fieldsInvalid: ({ event }) => {
      assertEvent(event, 'change.submitted');
      return passwordChangeError(event.fields) !== null;
    },
  },
}).createMachine({
  id: 'passwordChange',
  context: ({ input }) => ({ auth: input.auth, error: null }),
  initial: 'closed',
  states: {
    closed: {
      initial: 'idle',
      states: {
        idle: {},
        changed: successNotice('idle'),
      },
      // Stryker disable next-line ObjectLiteral: closing always clears the error, so a closed panel never has one.
      on: { 'panel.toggled': { target: 'open', actions: assign({ error: null }) } },
    },
    open: {
      initial: 'idle',
      states: {
        idle: {},
        invalid: {},
        failure: {},
        submitting: {
          tags: ['busy'],
          on: { 'change.submitted': {}, 'panel.toggled': {}, 'change.cancelled': {} },
          invoke: {
            // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
            id: 'changePassword',
            src: 'changePassword',
            input: ({ event }) => {
              assertEvent(event, 'change.submitted');
              return event.fields;
            },
            onDone: {
              target: '#passwordChange.closed.changed',
              actions: sendTo(
                ({ context }) => context.auth,
                ({ event }) => ({ type: 'session.tokenRenewed', jwt: event.output }),
              ),
            },
            onError: {
              target: 'failure',
              actions: assign({ error: ({ event }) => errorMessage(event.error, CHANGE_PASSWORD_FALLBACK) }),
            },
          },
        },
      },
      on: {
        'panel.toggled': { target: 'closed', actions: assign({ error: null }) },
        'change.cancelled': { target: 'closed', actions: assign({ error: null }) },
        'change.submitted': [
          {
            guard: 'fieldsInvalid',
            target: '.invalid',
            actions: assign({ error: ({ event }) => passwordChangeError(event.fields) }),
          },
          { target: '.submitting', actions: assign({ error: null }) },
        ],
      },
    },
  },
});
