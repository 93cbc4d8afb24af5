import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorMessage } from './services/errors';
import type { ProfileUpdate } from '../server/src/contract/users';
import { UPDATE_PROFILE_FALLBACK, updateProfile } from './services/users';
import { profileUpdateError } from '../server/src/contract/profileRules';
import { toProfileUpdate, type ProfileForm, type SavedProfile } from './rules/profileForms';
import { messageInUnits, unitSystemOf } from './rules/units';
import { emailChangeMessages } from '../server/src/contract/emailChange';
import { SUCCESS_NOTICE_MS, successNotice } from './shared/notice';

export const PROFILE_UPDATED_MESSAGE = 'Profile updated successfully!';

export type ProfileSectionEvent =
  | { type: 'edit.started' }
  | { type: 'edit.cancelled' }
  /**
   * The section's fields as typed, and the saved profile the form was filled from: its unit reads
   * the fields and words the rules' messages; what the member left unchanged stays as saved.
   */
  | { type: 'save.submitted'; form: ProfileForm; profile: SavedProfile };

type SaveSubmitted = Extract<ProfileSectionEvent, { type: 'save.submitted' }>;

/** The update the submitted form makes, in kg and cm. */
const submittedUpdate = (event: SaveSubmitted): ProfileUpdate => toProfileUpdate(event.form, event.profile);

/**
 * One profile section (Information, Diet, Interests or Goals): viewing or editing.
 * The form shows the saved values when editing starts, so cancelling restores them. A save stays
 * busy until the profile has reloaded, then leaves edit mode with the notice beside the saved values:
 * a new e-mail address is not saved but waits for the link mailed to it, and the notice says so.
 */
export const profileSectionMachine = setup({
  types: {
    context: {} as { userId: string; error: string | null; notice: string },
    events: {} as ProfileSectionEvent,
    input: {} as { userId: string },
  },
  actors: {
    /** Resolves to the new e-mail address waiting for its link, or null. */
    updateProfile: fromPromise<string | null, { userId: string; update: ProfileUpdate }>(({ input, signal }) =>
      updateProfile(input.userId, input.update, { signal }),
    ),
    /** Reloads the page's profile, done once the saved values show; the app provides it, and it never fails. */
    reloadProfile: fromPromise<void>(async () => {}),
  },
  delays: {
    successMessage: SUCCESS_NOTICE_MS,
  },
  guards: {
    updateInvalid: ({ event }) => {
      assertEvent(event, 'save.submitted');
      return profileUpdateError(submittedUpdate(event)) !== null;
    },
  },
}).createMachine({
  id: 'profileSection',
  context: ({ input }) => ({ userId: input.userId, error: null, notice: PROFILE_UPDATED_MESSAGE }),
  initial: 'viewing',
  states: {
    viewing: {
      initial: 'idle',
      states: {
        idle: {},
        saved: successNotice('idle'),
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
          initial: 'sending',
          states: {
            sending: {
              invoke: {
                // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
                id: 'updateProfile',
                src: 'updateProfile',
                input: ({ context, event }) => {
                  assertEvent(event, 'save.submitted');
                  return { userId: context.userId, update: submittedUpdate(event) };
                },
                onDone: {
                  target: 'reloading',
                  actions: assign({
                    notice: ({ event }) => (event.output === null ? PROFILE_UPDATED_MESSAGE : emailChangeMessages.sent(event.output)),
                  }),
                },
                onError: {
                  target: '#profileSection.editing.failure',
                  actions: assign({ error: ({ event }) => errorMessage(event.error, UPDATE_PROFILE_FALLBACK) }),
                },
              },
            },
            // Saved: the notice waits for the reloaded profile, so it shows beside the saved values, never the old ones.
            reloading: {
              invoke: {
                // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
                id: 'reloadProfile',
                src: 'reloadProfile',
                onDone: '#profileSection.viewing.saved',
              },
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
            actions: assign({
              error: ({ event }) => messageInUnits(profileUpdateError(submittedUpdate(event)), unitSystemOf(event.profile.unit_system)),
            }),
          },
          { target: '.saving', actions: assign({ error: null }) },
        ],
      },
    },
  },
});
