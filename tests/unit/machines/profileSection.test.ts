import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import { PROFILE_UPDATED_MESSAGE, profileSectionMachine } from '../../../machines/profileSection.machine';
import type { INFORMATION_FIELDS, ProfileForm, SavedProfile } from '../../../machines/rules/profileForms';
import type { UnitSystem } from '../../../machines/rules/units';
import type { ProfileUpdate } from '../../../server/src/contract/users';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';
import { emailChangeMessages } from '../../../server/src/contract/emailChange';

/** API doubles, shaped like the service calls the machine's actors make; each test sets what they answer. */
const updateProfile = vi.fn<(userId: string, update: ProfileUpdate, options: { signal: AbortSignal }) => Promise<string | null>>();

let save: Deferred<string | null>;
let reload: Deferred<void>;

beforeEach(() => {
  save = deferred<string | null>();
  reload = deferred<void>();
  updateProfile.mockReset().mockReturnValue(save.promise);
});

function start() {
  // Each reload waits for the test to settle the current `reload`.
  const reloadProfile = vi.fn(() => reload.promise);
  const clock = new SimulatedClock();
  const machine = profileSectionMachine.provide({
    actors: {
      updateProfile: fromPromise<string | null, { userId: string; update: ProfileUpdate }>(({ input, signal }) =>
        updateProfile(input.userId, input.update, { signal }),
      ),
      reloadProfile: fromPromise(reloadProfile),
    },
  });
  const actor = createActor(machine, { input: { userId: '7' }, clock }).start();
  return { actor, clock, reloadProfile };
}

const profile: SavedProfile = {
  email: 'eater@example.com',
  provider: 'local',
  bmi: { id: 1, currentWeight: 80, height: 180, Gender: 'Male', date_of_birth: null, idealBmiWeight: '72.9' },
  goal_weight: null,
  unit_system: null,
};
type InformationFields = Record<(typeof INFORMATION_FIELDS)[number], string>;
const typedInformation: InformationFields = {
  username: 'meateater',
  email: 'eater@example.com',
  currentPassword: '',
  date_of_birth: '',
  Gender: 'Male',
  height: '180',
  feet: '',
  inches: '',
  currentWeight: '80',
};
const information = (fields: Partial<InformationFields>): ProfileForm => ({
  section: 'information',
  fields: { ...typedInformation, ...fields },
});
const goals = (goal_weight: string): ProfileForm => ({
  section: 'goals',
  fields: { goal_weight, personal_goal_note: '', goal_reminder: 'daily' },
});
const diet: ProfileForm = { section: 'diet', fields: { diet_preference: 'Ketovore' } };
const dietUpdate = { section: 'diet', values: { diet_preference: 'Ketovore' } };

/** The Save of a form filled from the profile above, shown in `unit` (metric when the profile has none). */
const saved = (form: ProfileForm, unit: UnitSystem | null = null) =>
  ({ type: 'save.submitted', form, profile: { ...profile, unit_system: unit } }) as const;

describe('profileSection (SPEC §4 Profile sections, §5 Profile Information and Goals save, §8, §9)', () => {
  it('views, and Edit opens the form', () => {
    const { actor } = start();
    expect(actor.getSnapshot().matches({ viewing: 'idle' })).toBe(true);
    actor.send({ type: 'edit.started' });
    expect(actor.getSnapshot().matches({ editing: 'idle' })).toBe(true);
  });

  it('Cancel goes back to viewing and forgets the error', () => {
    const { actor } = start();
    actor.send({ type: 'edit.started' });
    actor.send(saved(information({ username: '' })));
    actor.send({ type: 'edit.cancelled' });
    expect(actor.getSnapshot().matches({ viewing: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(updateProfile).not.toHaveBeenCalled();
  });

  it.each([
    [information({ username: '' }), 'Username is required'],
    [information({ username: ' ab ' }), 'Username must be at least 3 characters'],
    [information({ email: 'eater@example' }), 'Invalid email format'],
    [information({ height: '0' }), 'Height and weight must be positive'],
    [information({ currentWeight: '-1' }), 'Height and weight must be positive'],
    [information({ height: '99' }), 'Height must be between 100-250 cm'],
    [information({ currentWeight: '301' }), 'Weight must be between 30-300 kg'],
    [information({ email: 'new@example.com' }), 'Please enter your current password to change your email.'],
    [goals('29'), 'Goal weight must be between 30-300 kg'],
  ])('refuses %j with %j and sends nothing', (form, message) => {
    const { actor } = start();
    actor.send({ type: 'edit.started' });
    actor.send(saved(form));
    expect(actor.getSnapshot().matches({ editing: 'invalid' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBe(message);
    expect(updateProfile).not.toHaveBeenCalled();
  });

  it.each([
    [
      information({ feet: '5', inches: '11', currentWeight: '700' }),
      'Weight must be between 67-661 lb',
      'Weight must be between 30-300 kg',
    ],
    [
      information({ height: '99', feet: '3', inches: '0' }),
      'Height must be between 3 ft 4 in and 8 ft 2 in',
      'Height must be between 100-250 cm',
    ],
    [goals('20'), 'Goal weight must be between 67-661 lb', 'Goal weight must be between 30-300 kg'],
  ])('reads pounds and feet and words the limits in them for an imperial member (issue 12): %j gives %j', (form, imperial, metric) => {
    const { actor } = start();
    actor.send({ type: 'edit.started' });
    actor.send(saved(form, 'imperial'));
    expect(actor.getSnapshot().context.error).toBe(imperial);
    // The same fields read in kg and cm.
    actor.send(saved(form, 'metric'));
    expect(actor.getSnapshot().context.error).toBe(metric);
    expect(updateProfile).not.toHaveBeenCalled();
  });

  it('sends the update the typed fields make, in kg and cm, with the password for a new e-mail', () => {
    const { actor } = start();
    actor.send({ type: 'edit.started' });
    const typed = {
      username: ' ribeye ',
      email: 'new@example.com',
      currentPassword: 'secret123',
      feet: '5',
      inches: '10.9',
      currentWeight: '176.4',
    };
    actor.send(saved(information(typed), 'imperial'));
    expect(updateProfile).toHaveBeenCalledWith(
      '7',
      {
        section: 'information',
        values: {
          username: 'ribeye',
          email: 'new@example.com',
          currentPassword: 'secret123',
          // 5 ft 10.9 in and 176.4 lb show the saved 180 cm and 80 kg unchanged, so those stay exact.
          bmi: { height: 180, currentWeight: 80, Gender: 'Male', date_of_birth: null, idealBmiWeight: '72.9' },
        },
      },
      { signal: expect.any(AbortSignal) },
    );
  });

  it('lets a member with no height and weight yet save the other fields, and checks both once one is typed (issue 21)', () => {
    const { actor } = start();
    const newMember = { ...profile, bmi: null };
    const emailOnly = information({ height: '', currentWeight: '', email: 'new@example.com', currentPassword: 'secret123' });
    actor.send({ type: 'edit.started' });
    actor.send({ type: 'save.submitted', form: information({ height: '180', currentWeight: '' }), profile: newMember });
    expect(actor.getSnapshot().context.error).toBe('Height and weight must be positive');
    actor.send({ type: 'save.submitted', form: emailOnly, profile: newMember });
    expect(actor.getSnapshot().matches({ editing: 'saving' })).toBe(true);
    expect(updateProfile).toHaveBeenCalledWith(
      '7',
      {
        section: 'information',
        values: {
          username: 'meateater',
          email: 'new@example.com',
          currentPassword: 'secret123',
          bmi: { Gender: 'Male', date_of_birth: null },
        },
      },
      { signal: expect.any(AbortSignal) },
    );
  });

  it('saves the section for the member, busy meanwhile, ignoring Cancel and a second Save', () => {
    const { actor } = start();
    actor.send({ type: 'edit.started' });
    actor.send(saved(information({ username: '' })));
    actor.send(saved(diet));
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ editing: 'saving' })).toBe(true);
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.context.error).toBeNull();
    expect(updateProfile).toHaveBeenCalledWith('7', dietUpdate, { signal: expect.any(AbortSignal) });

    actor.send(saved(diet));
    actor.send({ type: 'edit.cancelled' });
    expect(actor.getSnapshot().matches({ editing: 'saving' })).toBe(true);
    expect(updateProfile).toHaveBeenCalledTimes(1);
  });

  it("on success reloads the profile, busy meanwhile, then leaves edit mode and shows 'Profile updated successfully!' for 3 seconds", async () => {
    const { actor, clock, reloadProfile } = start();
    actor.send({ type: 'edit.started' });
    actor.send(saved(information({})));
    expect(reloadProfile).not.toHaveBeenCalled();
    save.resolve(null);
    await nextTick();
    // Saved, but the page still shows the old values: no notice yet, the form stays busy and deaf.
    expect(reloadProfile).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().matches({ editing: { saving: 'reloading' } })).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().hasTag('success')).toBe(false);
    actor.send({ type: 'edit.cancelled' });
    actor.send(saved(diet));
    expect(actor.getSnapshot().matches({ editing: { saving: 'reloading' } })).toBe(true);
    expect(updateProfile).toHaveBeenCalledTimes(1);

    reload.resolve();
    await nextTick();
    expect(actor.getSnapshot().matches({ viewing: 'saved' })).toBe(true);
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(reloadProfile).toHaveBeenCalledTimes(1);
    expect(PROFILE_UPDATED_MESSAGE).toBe('Profile updated successfully!');

    clock.increment(2999);
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches({ viewing: 'idle' })).toBe(true);
  });

  it('a new e-mail address waits for its link: the notice says where it was sent; the next plain save says saved again', async () => {
    const { actor, reloadProfile } = start();
    expect(actor.getSnapshot().context.notice).toBe(PROFILE_UPDATED_MESSAGE);
    actor.send({ type: 'edit.started' });
    actor.send(saved(information({ email: 'new@example.com', currentPassword: 'secret123' })));
    save.resolve('new@example.com');
    await nextTick();
    reload.resolve();
    await nextTick();
    expect(actor.getSnapshot().matches({ viewing: 'saved' })).toBe(true);
    expect(actor.getSnapshot().context.notice).toBe(
      'We sent a confirmation link to new@example.com. Your email changes when you open it (within 24 hours).',
    );
    expect(emailChangeMessages.sent('x@example.com')).toContain('x@example.com');

    save = deferred<string | null>();
    reload = deferred<void>();
    updateProfile.mockReturnValue(save.promise);
    actor.send({ type: 'edit.started' });
    actor.send(saved(diet));
    save.resolve(null);
    await nextTick();
    reload.resolve();
    await nextTick();
    expect(actor.getSnapshot().matches({ viewing: 'saved' })).toBe(true);
    expect(actor.getSnapshot().context.notice).toBe(PROFILE_UPDATED_MESSAGE);
    expect(reloadProfile).toHaveBeenCalledTimes(2);
  });

  it("stays in the form with the server's message, or 'Failed to update profile', on failure", async () => {
    const { actor, reloadProfile } = start();
    actor.send({ type: 'edit.started' });
    actor.send(saved(diet));
    save.reject(new Error('Email already taken'));
    await nextTick();
    expect(actor.getSnapshot().matches({ editing: 'failure' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('Email already taken');
    expect(reloadProfile).not.toHaveBeenCalled();

    updateProfile.mockRejectedValue(new Error(''));
    actor.send(saved(diet));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to update profile');
  });
});
