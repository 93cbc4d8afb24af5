import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { fromPromise } from 'xstate';
import { localToday, weightHistoryMachine } from '../../machines/weightHistory.machine';
import type { NewWeightEntry, WeightEntry } from '../../server/src/contract/progress';
import type { User } from '../../server/src/contract/users';
import { formatDay } from '../../machines/rules/dates';
import { ApiError } from '../../machines/services/errors';
import { weightHistoryModel } from '../models/weightHistory.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { seeButton, seeMessages, shownFor } from '../support/pathSteps';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';
import { settle } from '../support/settle';

const LOAD_FAILED = 'Failed to load weight history';
const ENTRY_SAVED = 'Weight entry saved';
const older: WeightEntry[] = [
  { id: 1, date: '2025-03-01', weight: 84 },
  { id: 2, date: '2025-03-08', weight: 82.5 },
];
const day = (date: string) => formatDay(date);

function openGoals(inspect?: Inspect, user: Partial<User> = {}) {
  const loads = deferredCalls<void, WeightEntry[]>();
  const adds = deferredCalls<NewWeightEntry, WeightEntry>();
  const deletes = deferredCalls<{ id: number }, number>();
  const weightHistory = weightHistoryMachine.provide({
    actors: {
      loadEntries: fromPromise<WeightEntry[]>(() => loads.handler()),
      addEntry: fromPromise<WeightEntry, NewWeightEntry>(({ input }) => adds.handler(input)),
      deleteEntry: fromPromise<number, { id: number }>(({ input }) => deletes.handler(input)),
    },
  });
  const app = renderProfile('goals', { weightHistory }, { goal_weight: 75, ...user }, inspect);
  return {
    ...app,
    loads,
    adds,
    deletes,
    /** What the server holds, as the table should show it. */
    entries: [] as WeightEntry[],
    /** The call a 'server.refused' answers. */
    pending: 'add' as 'add' | 'delete',
    addsBefore: 0,
  };
}
type Page = ReturnType<typeof openGoals>;

const historyRegion = () => screen.getByRole('region', { name: 'Weight history' });
const history = () => within(historyRegion());
const bodyRows = () => history().queryAllByRole('row').slice(1);

async function addEntry(page: Page, date: string, weight: string) {
  page.addsBefore = page.adds.calls.length;
  page.pending = 'add';
  const dateField = history().getByLabelText('Date') as HTMLInputElement;
  await page.user.clear(dateField);
  await page.user.type(dateField, date);
  const weightField = history().getByLabelText('Weight (kg)');
  await page.user.clear(weightField);
  await page.user.type(weightField, weight);
  await page.user.click(history().getByRole('button', { name: 'Add entry' }));
}

/** The table lists the entries newest first. */
async function expectRows(page: Page) {
  await see(`${page.entries.length} rows`, () => expect(bodyRows()).toHaveLength(page.entries.length));
  const newestFirst = [...page.entries].sort((a, b) => b.date.localeCompare(a.date));
  newestFirst.forEach((entry, index) => {
    const row = within(bodyRows()[index]);
    expect(row.getByRole('rowheader').textContent).toBe(day(entry.date));
    expect(row.getByText(`${entry.weight} kg`)).toBeTruthy();
    expect(row.getByRole('button', { name: `Delete the entry of ${day(entry.date)}` })).toBeTruthy();
  });
  expect(history().getByRole('table', { name: 'Weight entries, newest first' })).toBeTruthy();
}

async function expectForm({ busy = false, alert, notice }: { busy?: boolean; alert?: string; notice?: string }) {
  await seeButton(historyRegion, { idle: 'Add entry', busy: 'Saving...' }, busy);
  for (const button of history().queryAllByRole('button', { name: /^Delete the entry/ }))
    expect((button as HTMLButtonElement).disabled).toBe(busy);
  await seeMessages(historyRegion, { alert, notice });
}

const invalidMessages: Record<string, string> = {
  'entry.addedLight': 'Weight must be between 30-300 kg',
  'entry.addedFuture': 'Date cannot be in the future',
};
const refusals = { add: 'Date cannot be in the future', delete: 'Weight entry not found' };

describe('weightHistory: the spec model replayed against the Goals tab', () => {
  afterEach(restoreProfileHarness);

  definePathTests<Page>({
    flow: 'weightHistory',
    machine: weightHistoryMachine,
    model: weightHistoryModel,
    open: { 'goals.opened': (inspect) => openGoals(inspect) },
    perform: {
      'server.answeredEntries': (page) => {
        page.entries = [...older];
        page.loads.last().settle.resolve([...older].reverse());
      },
      'server.answeredNone': (page) => {
        page.entries = [];
        page.loads.last().settle.resolve([]);
      },
      'server.failed': (page) => page.loads.last().settle.reject(new ApiError(LOAD_FAILED, 500)),
      'retry.clicked': (page) => page.user.click(history().getByRole('button', { name: 'Retry' })),
      'entry.addedValid': (page) => addEntry(page, localToday(), '79.5'),
      'entry.addedLight': (page) => addEntry(page, '2025-03-09', '25'),
      'entry.addedFuture': (page) => addEntry(page, '2999-01-01', '80'),
      'entry.deleteClicked': async (page) => {
        page.pending = 'delete';
        await page.user.click(history().getByRole('button', { name: `Delete the entry of ${day(page.entries[0].date)}` }));
      },
      'server.saved': (page) => {
        const { input } = page.adds.last();
        const saved = { id: 10 + page.adds.calls.length, ...input };
        page.entries = [...page.entries.filter((entry) => entry.date !== input.date), saved];
        page.adds.last().settle.resolve(saved);
      },
      'server.deleted': (page) => {
        const { id } = page.deletes.last().input;
        page.entries = page.entries.filter((entry) => entry.id !== id);
        page.deletes.last().settle.resolve(id);
      },
      'time.passed3s': async () => {
        await act(() => vi.advanceTimersByTimeAsync(2999));
        expect(history().getByRole('status').textContent).toBe(ENTRY_SAVED);
        await act(() => vi.advanceTimersByTimeAsync(1));
      },
      'server.refused': (page) =>
        page.pending === 'add'
          ? page.adds.last().settle.reject(new ApiError(refusals.add, 400))
          : page.deletes.last().settle.reject(new ApiError(refusals.delete, 404)),
    },
    screens: {
      loading: async (page) => {
        await see("'Loading weight history…'", () => history().getByText('Loading weight history…'));
        expect(history().queryByRole('table')).toBeNull();
        expect(page.loads.calls.length).toBeGreaterThan(0);
      },
      failed: async () => {
        await see(`the alert '${LOAD_FAILED}' with Retry`, () => expect(history().getByRole('alert').textContent).toBe(LOAD_FAILED));
        expect(history().getByRole('button', { name: 'Retry' })).toBeTruthy();
        expect(history().queryByRole('table')).toBeNull();
      },
      empty: async () => {
        await see("'No entries yet…'", () => history().getByText(/^No entries yet\./));
        expect(history().queryByRole('table')).toBeNull();
        await expectForm({});
      },
      listed: async (page) => {
        await expectRows(page);
        await expectForm({});
      },
      invalid: async (page, { via }) => {
        await expectForm({ alert: shownFor(invalidMessages, via) });
        expect(page.adds.calls).toHaveLength(page.addsBefore);
      },
      adding: async (page) => {
        await expectForm({ busy: true });
        expect(page.adds.calls).toHaveLength(page.addsBefore + 1);
        expect(page.adds.last().input).toEqual({ date: localToday(), weight: 79.5 });
      },
      added: async (page) => {
        await expectForm({ notice: ENTRY_SAVED });
        await expectRows(page);
      },
      deleting: (page) => expectForm({ busy: true }).then(() => expect(page.deletes.last().input).toEqual({ id: page.entries[0].id })),
      refused: async (page) => {
        await expectForm({ alert: refusals[page.pending] });
        await expectRows(page);
      },
    },
  });

  it('shows, takes and sends weights in pounds for an imperial member, stored in kg', async () => {
    const page = openGoals(undefined, { unit_system: 'imperial' });
    await settle(() => expect(page.loads.calls).toHaveLength(1));
    page.loads.last().settle.resolve([{ id: 1, date: '2025-03-01', weight: 81.6466266 }]);
    await settle(() => expect(bodyRows()).toHaveLength(1));
    expect(within(bodyRows()[0]).getByText('180 lb')).toBeTruthy();
    page.addsBefore = page.adds.calls.length;
    await page.user.type(history().getByLabelText('Weight (lb)'), '66');
    await page.user.click(history().getByRole('button', { name: 'Add entry' }));
    await settle(() => expect(history().getByRole('alert').textContent).toBe('Weight must be between 67-661 lb'));
    expect(page.adds.calls).toHaveLength(0);
    await page.user.clear(history().getByLabelText('Weight (lb)'));
    await page.user.type(history().getByLabelText('Weight (lb)'), '178');
    await page.user.click(history().getByRole('button', { name: 'Add entry' }));
    await settle(() => expect(page.adds.calls).toHaveLength(1));
    expect(page.adds.last().input).toEqual({ date: localToday(), weight: 178 * 0.45359237 });
  });
});
