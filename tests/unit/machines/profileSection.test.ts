import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import { updateProfile } from '../../../src/api/users';
import { PROFILE_UPDATED_MESSAGE, profileSectionMachine, type ProfileSectionEvent } from '../../../machines/profileSection.machine';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick, recordingAuth } from './machineTestKit';

vi.mock('../../../src/api/users', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../src/api/users')>()),
  updateProfile: vi.fn(),
}));

type ProfileUpdate = Extract<ProfileSectionEvent, { type: 'save.submitted' }>['update'];

let save: Deferred<string | null>;

beforeEach(() => {
  save = deferred<string | null>();
  vi.mocked(updateProfile).mockReset().mockReturnValue(save.promise);
});

function start() {
  const reloadProfile = vi.fn();
  const session = recordingAuth();
  const clock = new SimulatedClock();
  const machine = profileSectionMachine.provide({ actions: { reloadProfile } });
  const actor = createActor(machine, { input: { userId: '7', auth: session.auth }, inspect: session.inspect, clock }).start();
  return { actor, clock, reloadProfile, session };
}

const bmi = { currentWeight: 80, height: 180, Gender: 'Male' as const, date_of_birth: null, idealBmiWeight: '72.9' };
const information = (values: Partial<{ username: string; email: string; height: number; currentWeight: number }>): ProfileUpdate => {
  const { height = bmi.height, currentWeight = bmi.currentWeight, username = 'meateater', email = 'eater@example.com' } = values;
  return { section: 'information', values: { username, email, bmi: { ...bmi, height, currentWeight } } };
};
const diet: ProfileUpdate = { section: 'diet', values: { diet_preference: 'Ketovore' } };

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
    actor.send({ type: 'save.submitted', update: information({ username: '' }) });
    actor.send({ type: 'edit.cancelled' });
    expect(actor.getSnapshot().matches({ viewing: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(updateProfile).not.toHaveBeenCalled();
  });

  it.each([
    [information({ username: '' }), 'Username is required'],
    [information({ username: ' ab ' }), 'Username must be at least 3 characters'],
    [information({ email: 'eater@example' }), 'Invalid email format'],
    [information({ height: 0 }), 'Height and weight must be positive'],
    [information({ currentWeight: -1 }), 'Height and weight must be positive'],
    [information({ height: 99 }), 'Height must be between 100-250 cm'],
    [information({ currentWeight: 301 }), 'Weight must be between 30-300 kg'],
    [
      { section: 'goals', values: { goal_weight: 29, goal_reminder: 'daily', personal_goal_note: '' } } satisfies ProfileUpdate,
      'Goal weight must be between 30-300 kg',
    ],
  ])('refuses %j with %j and sends nothing', (update, message) => {
    const { actor } = start();
    actor.send({ type: 'edit.started' });
    actor.send({ type: 'save.submitted', update });
    expect(actor.getSnapshot().matches({ editing: 'invalid' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBe(message);
    expect(updateProfile).not.toHaveBeenCalled();
  });

  it.each([
    [information({ currentWeight: 301 }), 'Weight must be between 67-661 lb'],
    [information({ height: 99 }), 'Height must be between 3 ft 4 in and 8 ft 2 in'],
    [
      { section: 'goals', values: { goal_weight: 29, goal_reminder: 'daily', personal_goal_note: '' } } satisfies ProfileUpdate,
      'Goal weight must be between 67-661 lb',
    ],
  ])('words the limits in pounds and feet for an imperial member (issue 12): %j gives %j', (update, message) => {
    const { actor } = start();
    actor.send({ type: 'edit.started' });
    actor.send({ type: 'save.submitted', update, unitSystem: 'imperial' });
    expect(actor.getSnapshot().context.error).toBe(message);
    actor.send({ type: 'save.submitted', update, unitSystem: 'metric' });
    expect(actor.getSnapshot().context.error).not.toBe(message);
    expect(updateProfile).not.toHaveBeenCalled();
  });

  it("saves the section for the member, busy meanwhile, ignoring Cancel and a second Save", () => {
    const { actor } = start();
    actor.send({ type: 'edit.started' });
    actor.send({ type: 'save.submitted', update: information({ username: '' }) });
    actor.send({ type: 'save.submitted', update: diet });
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ editing: 'saving' })).toBe(true);
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.context.error).toBeNull();
    expect(updateProfile).toHaveBeenCalledWith('7', diet, { signal: expect.any(AbortSignal) });

    actor.send({ type: 'save.submitted', update: diet });
    actor.send({ type: 'edit.cancelled' });
    expect(actor.getSnapshot().matches({ editing: 'saving' })).toBe(true);
    expect(updateProfile).toHaveBeenCalledTimes(1);
  });

  it("leaves edit mode on success, reloads the profile and shows 'Profile updated successfully!' for 3 seconds", async () => {
    const { actor, clock, reloadProfile } = start();
    actor.send({ type: 'edit.started' });
    actor.send({ type: 'save.submitted', update: information({}) });
    expect(reloadProfile).not.toHaveBeenCalled();
    save.resolve(null);
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

  it('sends the fresh token a new e-mail address answers to the auth actor, and nothing when none came', async () => {
    const { actor, reloadProfile, session } = start();
    actor.send({ type: 'edit.started' });
    actor.send({ type: 'save.submitted', update: information({ email: 'new@example.com' }) });
    save.resolve('fresh-token');
    await nextTick();
    expect(actor.getSnapshot().matches({ viewing: 'saved' })).toBe(true);
    expect(session.received).toEqual([{ type: 'session.tokenRenewed', jwt: 'fresh-token' }]);
    expect(session.auth.getSnapshot().context.session).toEqual({ jwt: 'fresh-token', userId: '7' });
    expect(reloadProfile).toHaveBeenCalledTimes(1);

    save = deferred<string | null>();
    vi.mocked(updateProfile).mockReturnValue(save.promise);
    actor.send({ type: 'edit.started' });
    actor.send({ type: 'save.submitted', update: diet });
    save.resolve(null);
    await nextTick();
    expect(actor.getSnapshot().matches({ viewing: 'saved' })).toBe(true);
    // No new token (no e-mail change): the auth actor hears nothing and the member stays logged in.
    expect(session.received).toEqual([{ type: 'session.tokenRenewed', jwt: 'fresh-token' }]);
    expect(session.auth.getSnapshot().context.session).toEqual({ jwt: 'fresh-token', userId: '7' });
    expect(reloadProfile).toHaveBeenCalledTimes(2);
  });

  it("stays in the form with the server's message, or 'Failed to update profile', on failure", async () => {
    const { actor, reloadProfile } = start();
    actor.send({ type: 'edit.started' });
    actor.send({ type: 'save.submitted', update: diet });
    save.reject(new Error('Email already taken'));
    await nextTick();
    expect(actor.getSnapshot().matches({ editing: 'failure' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('Email already taken');
    expect(reloadProfile).not.toHaveBeenCalled();

    vi.mocked(updateProfile).mockRejectedValue(new Error(''));
    actor.send({ type: 'save.submitted', update: diet });
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to update profile');
  });
});
