import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import type { SettingUpdate } from '../../../machines/services/progress';
import { profileSettingMachine } from '../../../machines/profileSetting.machine';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';

/** API doubles, shaped like the service calls the machine's actors make; each test sets what they answer. */
const updateSetting = vi.fn<(userId: string, update: SettingUpdate, options: { signal: AbortSignal }) => Promise<void>>();

let save: Deferred<void>;

beforeEach(() => {
  save = deferred<void>();
  updateSetting.mockReset().mockReturnValue(save.promise);
});

function start() {
  const reloadProfile = vi.fn();
  const clock = new SimulatedClock();
  const actor = createActor(
    profileSettingMachine.provide({
      actors: {
        updateSetting: fromPromise<void, { userId: string; update: SettingUpdate }>(({ input, signal }) =>
          updateSetting(input.userId, input.update, { signal }),
        ),
      },
      actions: { reloadProfile },
    }),
    { input: { userId: '7' }, clock },
  ).start();
  return { actor, clock, reloadProfile };
}

const imperial = { type: 'setting.changed', update: { unit_system: 'imperial' } } as const;
const remindersOff = { type: 'setting.changed', update: { reminders_enabled: false } } as const;

describe('profileSetting (issue 12: the units switch and the reminders toggle)', () => {
  it('starts idle with nothing pending', () => {
    const { actor } = start();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ userId: '7', error: null, pending: null });
  });

  it('saves the change for the member at once, busy and deaf to another change meanwhile', () => {
    const { actor } = start();
    actor.send(imperial);
    expect(actor.getSnapshot().matches('saving')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().context.pending).toEqual({ unit_system: 'imperial' });
    expect(updateSetting).toHaveBeenCalledWith('7', { unit_system: 'imperial' }, { signal: expect.any(AbortSignal) });
    actor.send(remindersOff);
    expect(actor.getSnapshot().context.pending).toEqual({ unit_system: 'imperial' });
    expect(updateSetting).toHaveBeenCalledTimes(1);
  });

  it("reloads the profile, keeps the choice shown, and says 'Profile updated successfully!' for 3 seconds", async () => {
    const { actor, clock, reloadProfile } = start();
    actor.send(remindersOff);
    expect(reloadProfile).not.toHaveBeenCalled();
    save.resolve();
    await nextTick();
    expect(actor.getSnapshot().matches('saved')).toBe(true);
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context.pending).toEqual({ reminders_enabled: false });
    expect(reloadProfile).toHaveBeenCalledTimes(1);
    clock.increment(2999);
    expect(actor.getSnapshot().matches('saved')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
  });

  it('may be changed again while the success message shows', async () => {
    const { actor } = start();
    actor.send(remindersOff);
    save.resolve();
    await nextTick();
    save = deferred<void>();
    updateSetting.mockReturnValue(save.promise);
    actor.send({ type: 'setting.changed', update: { reminders_enabled: true } });
    expect(actor.getSnapshot().matches('saving')).toBe(true);
    expect(updateSetting).toHaveBeenLastCalledWith('7', { reminders_enabled: true }, { signal: expect.any(AbortSignal) });
  });

  it("shows the server's message or 'Failed to update profile', drops the pending choice, and may try again", async () => {
    const { actor, reloadProfile } = start();
    actor.send(imperial);
    save.reject(new Error('Units must be metric or imperial'));
    await nextTick();
    expect(actor.getSnapshot().matches('failure')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('Units must be metric or imperial');
    expect(actor.getSnapshot().context.pending).toBeNull();
    expect(reloadProfile).not.toHaveBeenCalled();

    updateSetting.mockRejectedValue(new Error(''));
    actor.send(imperial);
    expect(actor.getSnapshot().context.error).toBeNull();
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to update profile');
  });
});
