import { assertEvent, assign, fromPromise, sendTo, setup } from 'xstate';
import { errorMessage } from '../src/api/errors';
import type { ProfileUpdate } from '../server/src/contract/users';
import { UPDATE_PROFILE_FALLBACK, updateProfile } from '../src/api/users';
import { profileUpdateError } from '../server/src/contract/profileRules';
import { messageInUnits, type UnitSystem } from '../src/lib/units';
import type { AuthActorRef } from './authSession.machine';

/** SPEC §9: profile success messages disappear after 3000 ms. */
export const SUCCESS_MESSAGE_MS = 3000;
export const PROFILE_UPDATED_MESSAGE = 'Profile updated successfully!';

export type ProfileSectionEvent =
  | { type: 'edit.started' }
  | { type: 'edit.cancelled' }
  /** The update is in kg and cm; the member's unit words the rules' messages (metric when absent). */
  | { type: 'save.submitted'; update: ProfileUpdate; unitSystem?: UnitSystem };

/**
 * One profile section (Information, Diet, Interests or Goals): viewing or editing.
 * The form shows the saved values when editing starts, so cancelling restores them.
 */
export const profileSectionMachine = setup({
  types: {
    context: {} as { userId: string; auth: AuthActorRef; error: string | null },
    events: {} as ProfileSectionEvent,
    input: {} as { userId: string; auth: AuthActorRef },
  },
  actors: {
    updateProfile: fromPromise<string | null, { userId: string; update: ProfileUpdate }>(({ input, signal }) =>
      updateProfile(input.userId, input.update, { signal }),
    ),
  },
  // Stryker disable next-line ObjectLiteral: a placeholder the app provides; XState skips a missing action the same way.
  actions: {
    reloadProfile: () => {},
  },
  delays: {
    successMessage: SUCCESS_MESSAGE_MS,
  },
  guards: {
    /** A new e-mail address revoked every earlier token; the answer carries this device's fresh one. */
    tokenRenewed: (_, params: { jwt: string | null }) => params.jwt !== null,
    updateInvalid: ({ event }) => {
      assertEvent(event, 'save.submitted');
      return profileUpdateError(event.update) !== null;
    },
  },
}).createMachine({
  id: 'profileSection',
  context: ({ input }) => ({ userId: input.userId, auth: input.auth, error: null }),
  initial: 'viewing',
  states: {
    viewing: {
      initial: 'idle',
      states: {
        idle: {},
        saved: {
          tags: ['success'],
          after: { successMessage: 'idle' },
        },
      },
      on: {
        // Stryker disable next-line ObjectLiteral: leaving the form always clears the error, so viewing never has one.
        'edit.started': { target: 'editing', actions: assign({ error: null }) },
      },
    },
    editing: {
      initial: 'idle',
      states: {
        idle: {},
        invalid: {},
        failure: {},
        saving: {
          tags: ['busy'],
          on: { 'save.submitted': {}, 'edit.cancelled': {} },
          invoke: {
            // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
            id: 'updateProfile',
            src: 'updateProfile',
            input: ({ context, event }) => {
              assertEvent(event, 'save.submitted');
              return { userId: context.userId, update: event.update };
            },
            onDone: [
              {
                guard: { type: 'tokenRenewed', params: ({ event }) => ({ jwt: event.output }) },
                target: '#profileSection.viewing.saved',
                actions: [sendTo(({ context }) => context.auth, ({ event }) => ({ type: 'session.tokenRenewed', jwt: event.output })), 'reloadProfile'],
              },
              { target: '#profileSection.viewing.saved', actions: 'reloadProfile' },
            ],
            onError: {
              target: 'failure',
              actions: assign({ error: ({ event }) => errorMessage(event.error, UPDATE_PROFILE_FALLBACK) }),
            },
          },
        },
      },
      on: {
        'edit.cancelled': { target: 'viewing', actions: assign({ error: null }) },
        'save.submitted': [
          {
            guard: 'updateInvalid',
            target: '.invalid',
            actions: assign({ error: ({ event }) => messageInUnits(profileUpdateError(event.update), event.unitSystem ?? 'metric') }),
          },
          { target: '.saving', actions: assign({ error: null }) },
        ],
      },
    },
  },
});
