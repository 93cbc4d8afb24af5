import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { ProfileUpdate } from '../../../server/src/contract/users';
import { bmiUpdate, firstRunBmiMachine, type BmiFields } from '../../../machines/firstRunBmi.machine';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';

/** API doubles, shaped like the service calls the machine's actors make; each test sets what they answer. */
const updateProfile = vi.fn<(userId: string, update: ProfileUpdate, options: { signal: AbortSignal }) => Promise<string | null>>();

let save: Deferred<void>;

beforeEach(() => {
  save = deferred<void>();
  updateProfile.mockReset().mockReturnValue(save.promise.then(() => null));
});

const member = { userId: '7', username: 'meateater', email: 'eater@example.com' };

function start(input = member) {
  const navigate = vi.fn();
  const actor = createActor(
    firstRunBmiMachine.provide({
      actors: {
        updateProfile: fromPromise<void, { userId: string; update: ProfileUpdate }>(async ({ input, signal }) => {
          await updateProfile(input.userId, input.update, { signal });
        }),
      },
      actions: { navigate },
    }),
    { input },
  ).start();
  return { actor, navigate };
}

const fields = (values: Partial<BmiFields> = {}): BmiFields => ({
  height: '180',
  currentWeight: '80',
  Gender: 'Male',
  date_of_birth: '1990-04-01',
  ...values,
});

describe('firstRunBmi (/bmi after a social sign-up: SPEC §2, §5 Profile Information save, §7, §8, §9)', () => {
  describe('the Information payload of SPEC §7', () => {
    const information = (bmi: object) => ({ section: 'information', values: { username: 'meateater', email: 'eater@example.com', bmi } });

    it('carries the member, the parsed height and weight, the gender and birth date, and the ideal BMI weight (22.5 × m², Male)', () => {
      expect(bmiUpdate(member, fields({ currentWeight: '80,5' }))).toEqual(
        information({ height: 180, currentWeight: 80.5, Gender: 'Male', date_of_birth: '1990-04-01', idealBmiWeight: '72.9' }),
      );
    });

    it('uses 21.5 × m² for Female, and sends no birth date when none is given', () => {
      expect(bmiUpdate(member, fields({ height: '170', Gender: 'Female', date_of_birth: '' }))).toEqual(
        information({ height: 170, currentWeight: 80, Gender: 'Female', date_of_birth: null, idealBmiWeight: '62.1' }),
      );
    });

    it('reads any other gender as the default, Male', () => {
      expect(bmiUpdate(member, fields({ Gender: '' }))).toEqual(
        information({ height: 180, currentWeight: 80, Gender: 'Male', date_of_birth: '1990-04-01', idealBmiWeight: '72.9' }),
      );
    });

    it('converts pounds and feet plus inches exactly to kg and cm (issue 12), ignoring the cm field', () => {
      const update = bmiUpdate(member, fields({ unitSystem: 'imperial', height: '999', feet: '5', inches: '11', currentWeight: '180' }));
      expect(update).toEqual(
        information({
          height: 180.34,
          currentWeight: 180 * 0.45359237,
          Gender: 'Male',
          date_of_birth: '1990-04-01',
          idealBmiWeight: '73.2',
        }),
      );
    });

    it("parses what isn't a number as 0, with an ideal BMI weight of '0'", () => {
      expect(bmiUpdate(member, fields({ height: 'tall', currentWeight: '' }))).toEqual(
        information({ height: 0, currentWeight: 0, Gender: 'Male', date_of_birth: '1990-04-01', idealBmiWeight: '0' }),
      );
    });
  });

  it('starts on the form with no error', () => {
    const { actor } = start();
    expect(actor.getSnapshot().matches({ form: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ ...member, error: null });
  });

  it.each([
    [fields({ height: '0' }), 'Height and weight must be positive'],
    [fields({ currentWeight: 'heavy' }), 'Height and weight must be positive'],
    [fields({ height: '99' }), 'Height must be between 100-250 cm'],
    [fields({ height: '250.5' }), 'Height must be between 100-250 cm'],
    [fields({ currentWeight: '29.9' }), 'Weight must be between 30-300 kg'],
    [fields({ currentWeight: '301' }), 'Weight must be between 30-300 kg'],
    // Imperial (issue 12): the same rules on the kg and cm, worded in pounds and feet and inches.
    [fields({ unitSystem: 'imperial', feet: '5', inches: '11', currentWeight: '66' }), 'Weight must be between 67-661 lb'],
    [fields({ unitSystem: 'imperial', feet: '3', inches: '3', currentWeight: '180' }), 'Height must be between 3 ft 4 in and 8 ft 2 in'],
    [fields({ unitSystem: 'imperial', feet: '', inches: '', currentWeight: '180' }), 'Height and weight must be positive'],
  ])('refuses %j with %j and saves nothing', (typed, message) => {
    const { actor, navigate } = start();
    actor.send({ type: 'bmi.submitted', fields: typed });
    expect(actor.getSnapshot().matches({ form: 'failure' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBe(message);
    expect(updateProfile).not.toHaveBeenCalled();
    expect(navigate).not.toHaveBeenCalled();
  });

  it.each([
    [{ ...member, username: ' ab ' }, 'Username must be at least 3 characters'],
    [{ ...member, email: 'eater@example' }, 'Invalid email format'],
  ])("checks the member's own fields as the Information save does: %j gives %j", (input, message) => {
    const { actor } = start(input);
    actor.send({ type: 'bmi.submitted', fields: fields() });
    expect(actor.getSnapshot().context.error).toBe(message);
    expect(updateProfile).not.toHaveBeenCalled();
  });

  it("saves the member's details (busy), clearing the error and ignoring a second submission meanwhile", () => {
    const { actor, navigate } = start();
    actor.send({ type: 'bmi.submitted', fields: fields({ height: '' }) });
    actor.send({ type: 'bmi.submitted', fields: fields({ height: '170', Gender: 'Female' }) });
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches('saving')).toBe(true);
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.context.error).toBeNull();
    expect(updateProfile).toHaveBeenCalledWith('7', bmiUpdate(member, fields({ height: '170', Gender: 'Female' })), {
      signal: expect.any(AbortSignal),
    });

    actor.send({ type: 'bmi.submitted', fields: fields() });
    expect(updateProfile).toHaveBeenCalledTimes(1);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('goes on to /profile once saved', async () => {
    const { actor, navigate } = start();
    actor.send({ type: 'bmi.submitted', fields: fields() });
    save.resolve();
    await nextTick();
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith(expect.anything(), { to: '/profile' });
  });

  it("stays on the form with the server's message, or 'Failed to update profile', and can save again", async () => {
    const { actor, navigate } = start();
    actor.send({ type: 'bmi.submitted', fields: fields() });
    save.reject(new Error('Not authenticated'));
    await nextTick();
    expect(actor.getSnapshot().matches({ form: 'failure' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('Not authenticated');
    expect(navigate).not.toHaveBeenCalled();

    updateProfile.mockRejectedValue(new Error(''));
    actor.send({ type: 'bmi.submitted', fields: fields() });
    expect(actor.getSnapshot().matches('saving')).toBe(true);
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to update profile');
  });
});
