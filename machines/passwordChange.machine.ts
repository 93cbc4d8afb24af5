import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../src/api/errors';
import { CHANGE_PASSWORD_FALLBACK, changePassword, type ChangePasswordPayload } from '../src/api/users';
import { passwordChangeError } from '../src/lib/profileValidation';

export const PASSWORD_CHANGED_MESSAGE = 'Password changed successfully!';
export const PASSWORD_CHANGED_MS = 3000;

export type PasswordChangeEvent =
  | { type: 'panel.toggled' }
  | { type: 'change.cancelled' }
  | { type: 'change.submitted'; fields: ChangePasswordPayload };

/** The Change Password panel: closing it (Cancel or toggle) clears its fields. */
export const passwordChangeMachine = setup({
  types: {
    context: {} as { error: string | null },
    events: {} as PasswordChangeEvent,
  },
  actors: {
    changePassword: fromPromise<void, ChangePasswordPayload>(({ input, signal }) => changePassword(input, { signal })),
  },
  delays: {
    successMessage: PASSWORD_CHANGED_MS,
  },
  guards: {
    fieldsInvalid: ({ event }) => {
      assertEvent(event, 'change.submitted');
      return passwordChangeError(event.fields) !== null;
    },
  },
}).createMachine({
  id: 'passwordChange',
  context: { error: null },
  initial: 'closed',
  states: {
    closed: {
      initial: 'idle',
      states: {
        idle: {},
        changed: { tags: ['success'], after: { successMessage: 'idle' } },
      },
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
            id: 'changePassword',
            src: 'changePassword',
            input: ({ event }) => {
              assertEvent(event, 'change.submitted');
              return event.fields;
            },
            onDone: '#passwordChange.closed.changed',
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
