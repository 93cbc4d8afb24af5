import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import type { NewWeightEntry, WeightEntry } from '../../../server/src/contract/progress';
import { localToday, weightHistoryMachine, withEntry } from '../../../machines/weightHistory.machine';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';

/** API doubles, shaped like the service calls the machine's actors make; each test sets what they answer. */
const getWeightEntries = vi.fn<(options: { signal: AbortSignal }) => Promise<WeightEntry[]>>();
const addWeightEntry = vi.fn<(entry: NewWeightEntry, options: { signal: AbortSignal }) => Promise<WeightEntry>>();
const deleteWeightEntry = vi.fn<(id: number, options: { signal: AbortSignal }) => Promise<void>>();
const machine = weightHistoryMachine.provide({
  actors: {
    loadEntries: fromPromise<WeightEntry[]>(({ signal }) => getWeightEntries({ signal })),
    addEntry: fromPromise<WeightEntry, NewWeightEntry>(({ input, signal }) => addWeightEntry(input, { signal })),
    deleteEntry: fromPromise<number, { id: number }>(async ({ input, signal }) => {
      await deleteWeightEntry(input.id, { signal });
      return input.id;
    }),
  },
});

let load: Deferred<WeightEntry[]>;
let add: Deferred<WeightEntry>;
let remove: Deferred<void>;

beforeEach(() => {
  load = deferred<WeightEntry[]>();
  add = deferred<WeightEntry>();
  remove = deferred<void>();
  getWeightEntries.mockReset().mockReturnValue(load.promise);
  addWeightEntry.mockReset().mockReturnValue(add.promise);
  deleteWeightEntry.mockReset().mockReturnValue(remove.promise);
});

const march = (day: number, weight: number, id = day): WeightEntry => ({ id, date: `2025-03-${String(day).padStart(2, '0')}`, weight });

async function loaded(entries: WeightEntry[] = [march(2, 82), march(1, 83)], clock = new SimulatedClock()) {
  const actor = createActor(machine, { clock }).start();
  load.resolve(entries);
  await nextTick();
  return actor;
}

/** A dated entry as typed: the weight in kg, or in lb for an imperial member. */
const entry = (date: string, weight: string, unitSystem: 'metric' | 'imperial' = 'metric') =>
  ({ type: 'entry.submitted', date, weight, unitSystem }) as const;

describe('weightHistory (issue 12: the Goals tab weight history)', () => {
  it('loads the entries, busy meanwhile, and keeps them oldest first', async () => {
    const actor = createActor(machine).start();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ entries: [], error: null });
    expect(getWeightEntries).toHaveBeenCalledWith({ signal: expect.any(AbortSignal) });
    load.resolve([march(2, 82), march(1, 83)]);
    await nextTick();
    expect(actor.getSnapshot().matches({ loaded: 'idle' })).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context.entries).toEqual([march(1, 83), march(2, 82)]);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it("shows the server's message or 'Failed to load weight history', and Retry loads again", async () => {
    const actor = createActor(machine).start();
    load.reject(new Error('Not authenticated'));
    await nextTick();
    expect(actor.getSnapshot().matches('failure')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('Not authenticated');

    load = deferred<WeightEntry[]>();
    getWeightEntries.mockReturnValue(load.promise);
    actor.send({ type: 'history.retried' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    load.reject(new Error(''));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to load weight history');

    load = deferred<WeightEntry[]>();
    getWeightEntries.mockReturnValue(load.promise);
    actor.send({ type: 'history.retried' });
    load.resolve([march(1, 83)]);
    await nextTick();
    expect(actor.getSnapshot().matches({ loaded: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(getWeightEntries).toHaveBeenCalledTimes(3);
  });

  it.each([
    [entry('2025-03-05', '29.9'), 'Weight must be between 30-300 kg'],
    [entry('2025-03-05', '300.1'), 'Weight must be between 30-300 kg'],
    [entry('2025-03-05', '66', 'imperial'), 'Weight must be between 67-661 lb'],
    [entry('', '80'), 'Date must be a valid date (YYYY-MM-DD)'],
    [entry('2025-02-30', '80'), 'Date must be a valid date (YYYY-MM-DD)'],
    [entry('2999-01-01', '80'), 'Date cannot be in the future'],
  ])('refuses %j with %j and sends nothing', async (event, message) => {
    const actor = await loaded();
    actor.send(event);
    expect(actor.getSnapshot().matches({ loaded: 'invalid' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBe(message);
    expect(addWeightEntry).not.toHaveBeenCalled();
  });

  it('adds a dated entry in kg (pounds converted exactly), busy and deaf to other changes meanwhile, and replaces the same day', async () => {
    const actor = await loaded();
    actor.send(entry('2025-03-05', '10'));
    actor.send(entry('2025-03-02', '180', 'imperial'));
    expect(actor.getSnapshot().matches({ loaded: 'adding' })).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(addWeightEntry).toHaveBeenCalledWith({ date: '2025-03-02', weight: 81.6466266 }, { signal: expect.any(AbortSignal) });
    actor.send(entry('2025-03-03', '80'));
    actor.send({ type: 'entry.deleted', id: 1 });
    expect(actor.getSnapshot().matches({ loaded: 'adding' })).toBe(true);
    expect(addWeightEntry).toHaveBeenCalledTimes(1);
    expect(deleteWeightEntry).not.toHaveBeenCalled();

    add.resolve({ id: 2, date: '2025-03-02', weight: 81.6466266 });
    await nextTick();
    expect(actor.getSnapshot().matches({ loaded: 'added' })).toBe(true);
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    expect(actor.getSnapshot().context.entries).toEqual([march(1, 83), { id: 2, date: '2025-03-02', weight: 81.6466266 }]);
  });

  it("shows 'Weight entry saved' for 3 seconds (SPEC §9), keeping the entries", async () => {
    const clock = new SimulatedClock();
    const actor = await loaded(undefined, clock);
    actor.send(entry('2025-03-03', '80'));
    add.resolve(march(3, 80));
    await nextTick();
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    clock.increment(2999);
    expect(actor.getSnapshot().matches({ loaded: 'added' })).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches({ loaded: 'idle' })).toBe(true);
    expect(actor.getSnapshot().hasTag('success')).toBe(false);
    expect(actor.getSnapshot().context.entries).toEqual([march(1, 83), march(2, 82), march(3, 80)]);
  });

  it("keeps the entries and shows the server's message or 'Failed to save weight entry' when adding fails", async () => {
    const actor = await loaded();
    actor.send(entry('2025-03-03', '80'));
    add.reject(new Error('Date cannot be in the future'));
    await nextTick();
    expect(actor.getSnapshot().matches({ loaded: 'refused' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('Date cannot be in the future');
    expect(actor.getSnapshot().context.entries).toHaveLength(2);

    add = deferred<WeightEntry>();
    addWeightEntry.mockReturnValue(add.promise);
    actor.send(entry('2025-03-03', '80'));
    expect(actor.getSnapshot().context.error).toBeNull();
    add.reject(new Error(''));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to save weight entry');
  });

  it('deletes one entry by id, busy and deaf meanwhile, and drops only that one', async () => {
    const actor = await loaded();
    actor.send(entry('1999-01-01', '10'));
    actor.send({ type: 'entry.deleted', id: 1 });
    expect(actor.getSnapshot().matches({ loaded: 'deleting' })).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(deleteWeightEntry).toHaveBeenCalledWith(1, { signal: expect.any(AbortSignal) });
    actor.send({ type: 'entry.deleted', id: 2 });
    actor.send(entry('2025-03-03', '80'));
    expect(deleteWeightEntry).toHaveBeenCalledTimes(1);
    expect(addWeightEntry).not.toHaveBeenCalled();
    remove.resolve();
    await nextTick();
    expect(actor.getSnapshot().matches({ loaded: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.entries).toEqual([march(2, 82)]);
  });

  it("keeps the entries and shows the server's message or 'Failed to delete weight entry' when deleting fails", async () => {
    const actor = await loaded();
    actor.send({ type: 'entry.deleted', id: 1 });
    remove.reject(new Error('Weight entry not found'));
    await nextTick();
    expect(actor.getSnapshot().matches({ loaded: 'refused' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('Weight entry not found');
    expect(actor.getSnapshot().context.entries).toHaveLength(2);

    remove = deferred<void>();
    deleteWeightEntry.mockReturnValue(remove.promise);
    actor.send({ type: 'entry.deleted', id: 1 });
    remove.reject(new Error(''));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to delete weight entry');
  });

  it('replaces an entry of the same day or id, keeping the days in order', () => {
    const entries = [march(1, 83), march(3, 81)];
    expect(withEntry(entries, march(2, 82))).toEqual([march(1, 83), march(2, 82), march(3, 81)]);
    expect(withEntry(entries, march(3, 80, 9))).toEqual([march(1, 83), march(3, 80, 9)]);
    expect(withEntry(entries, { id: 1, date: '2025-03-04', weight: 79 })).toEqual([
      march(3, 81),
      { id: 1, date: '2025-03-04', weight: 79 },
    ]);
  });

  it("gives the member's local day as YYYY-MM-DD", () => {
    expect(localToday(new Date(2025, 0, 5, 23, 59))).toBe('2025-01-05');
    expect(localToday(new Date(2025, 10, 20))).toBe('2025-11-20');
  });
});
