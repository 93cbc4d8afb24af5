import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { profileUpdateError } from '../server/src/contract/profileRules';
import type { ProfileUpdate } from '../server/src/contract/users';
import { errorMessage } from '../src/api/errors';
import { UPDATE_PROFILE_FALLBACK, updateProfile } from '../src/api/users';
import { idealBmiWeight, type Gender } from '../src/lib/bmi';
import { heightFromInput, messageInUnits, unitSystemOf, weightFromInput, type UnitSystem } from '../src/lib/units';
import type { NavigationRequest } from '../src/lib/navigation';

/**
 * The /bmi form's fields as typed: the machine parses them. In imperial the weight is in pounds and
 * the height in `feet` and `inches` (`height` is then unused); metric when no unit is given.
 */
export type BmiFields = {
  height: string;
  currentWeight: string;
  Gender: string;
  date_of_birth: string;
  unitSystem?: UnitSystem;
  feet?: string;
  inches?: string;
};

export type FirstRunBmiEvent = { type: 'bmi.submitted'; fields: BmiFields };

type Member = { userId: string; username: string; email: string };

export const FIRST_RUN_DONE: NavigationRequest = { to: '/profile' };

/** The BMI details as the profile's Information section saves them (same rules, same call). */
export function bmiUpdate(member: Member, fields: BmiFields): ProfileUpdate {
  const gender: Gender = fields.Gender === 'Female' ? 'Female' : 'Male';
  const unit = unitSystemOf(fields.unitSystem);
  const height = heightFromInput({ cm: fields.height, feet: fields.feet, inches: fields.inches }, unit);
  return {
    section: 'information',
    values: {
      username: member.username,
      email: member.email,
      bmi: {
        height,
        currentWeight: weightFromInput(fields.currentWeight, unit),
        Gender: gender,
        date_of_birth: fields.date_of_birth || null,
        idealBmiWeight: String(idealBmiWeight(height, gender) ?? 0),
      },
    },
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
