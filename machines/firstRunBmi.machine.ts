import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { profileUpdateError } from '../server/src/contract/profileRules';
import type { ProfileUpdate } from '../server/src/contract/users';
import { errorMessage } from './services/errors';
import { UPDATE_PROFILE_FALLBACK, updateProfile } from './services/users';
import { bmiFromForm, type BmiForm } from './rules/profileForms';
import { messageInUnits, unitSystemOf, type UnitSystem } from './rules/units';
import type { NavigationRequest } from './rules/navigation';

/** The /bmi form's fields as typed (the machine parses them), and the member's unit: metric when none is given. */
export type BmiFields = BmiForm & { unitSystem?: UnitSystem };

export type FirstRunBmiEvent = { type: 'bmi.submitted'; fields: BmiFields };

type Member = { userId: string; username: string; email: string };

export const FIRST_RUN_DONE: NavigationRequest = { to: '/profile' };

/** The BMI details as the profile's Information section saves them (same rules, same call). */
export function bmiUpdate(member: Member, fields: BmiFields): ProfileUpdate {
  return {
    section: 'information',
    values: { username: member.username, email: member.email, bmi: bmiFromForm(fields, unitSystemOf(fields.unitSystem)) },
  };
}

/** First run after a social sign-up (/bmi): height, weight, gender and birth date, then the profile. */
export const firstRunBmiMachine = setup({
  types: {
    context: {} as Member & { error: string | null },
    events: {} as FirstRunBmiEvent,
    input: {} as Member,
  },
  actors: {
    updateProfile: fromPromise<void, { userId: string; update: ProfileUpdate }>(async ({ input, signal }) => {
      await updateProfile(input.userId, input.update, { signal });
    }),
  },
  // Stryker disable next-line ObjectLiteral: a placeholder the app provides; XState skips a missing action the same way.
  actions: {
    navigate: (_, _request: NavigationRequest) => {},
  },
  guards: {
    fieldsInvalid: ({ context, event }) => {
      assertEvent(event, 'bmi.submitted');
      return profileUpdateError(bmiUpdate(context, event.fields)) !== null;
    },
  },
}).createMachine({
  id: 'firstRunBmi',
  context: ({ input }) => ({ ...input, error: null }),
  initial: 'form',
  states: {
    form: {
      initial: 'idle',
      states: { idle: {}, failure: {} },
      on: {
        'bmi.submitted': [
          {
            guard: 'fieldsInvalid',
            target: '.failure',
            actions: assign({
              error: ({ context, event }) =>
                messageInUnits(profileUpdateError(bmiUpdate(context, event.fields)), unitSystemOf(event.fields.unitSystem)),
            }),
          },
          { target: 'saving', actions: assign({ error: null }) },
        ],
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'updateProfile',
        src: 'updateProfile',
        input: ({ context, event }) => {
          assertEvent(event, 'bmi.submitted');
          return { userId: context.userId, update: bmiUpdate(context, event.fields) };
        },
        onDone: { target: 'done', actions: { type: 'navigate', params: FIRST_RUN_DONE } },
        onError: {
          target: 'form.failure',
          actions: assign({ error: ({ event }) => errorMessage(event.error, UPDATE_PROFILE_FALLBACK) }),
        },
      },
    },
    done: { type: 'final' },
  },
});
