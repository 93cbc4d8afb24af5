import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorMessage } from './services/errors';
import { updateSetting, type SettingUpdate } from './services/progress';
import { UPDATE_PROFILE_FALLBACK } from './services/users';
import { SUCCESS_NOTICE_MS, successNotice } from './shared/notice';

export type ProfileSettingEvent = { type: 'setting.changed'; update: SettingUpdate };

/**
 * One setting saved as soon as it is changed (units in Information, reminders in Goals): busy while
 * saving, then the profile reloads and 'Profile updated successfully!' shows for 3 s, or the server's message.
 */
export const profileSettingMachine = setup({
  types: {
    context: {} as { userId: string; error: string | null; pending: SettingUpdate | null },
    events: {} as ProfileSettingEvent,
    input: {} as { userId: string },
  },
  actors: {
    updateSetting: fromPromise<void, { userId: string; update: SettingUpdate }>(({ input, signal }) =>
      updateSetting(input.userId, input.update, { signal }),
    ),
  },
  // Stryker disable next-line ObjectLiteral: a placeholder the app provides; XState skips a missing action the same way.
  actions: {
    reloadProfile: () => {},
  },
  delays: {
    successMessage: SUCCESS_NOTICE_MS,
  },
}).createMachine({
  id: 'profileSetting',
  context: ({ input }) => ({ userId: input.userId, error: null, pending: null }),
  initial: 'idle',
  states: {
    idle: {},
    saved: successNotice('idle'),
    failure: {},
    saving: {
      tags: ['busy'],
      on: { 'setting.changed': {} },
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'updateSetting',
        src: 'updateSetting',
        input: ({ context, event }) => {
          assertEvent(event, 'setting.changed');
          return { userId: context.userId, update: event.update };
        },
        // The choice stays shown until the reloaded profile carries it.
        onDone: { target: 'saved', actions: 'reloadProfile' },
        onError: {
          target: 'failure',
          actions: assign({ pending: null, error: ({ event }) => errorMessage(event.error, UPDATE_PROFILE_FALLBACK) }),
        },
      },
    },
  },
  on: {
    'setting.changed': { target: '.saving', actions: assign({ error: null, pending: ({ event }) => event.update }) },
  },
});
