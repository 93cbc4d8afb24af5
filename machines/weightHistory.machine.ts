import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { weightEntryError, type NewWeightEntry, type WeightEntry } from '../server/src/contract/progress';
import { errorMessage } from './services/errors';
import { addWeightEntry, deleteWeightEntry, getWeightEntries, progressFallbacks } from './services/progress';
import { messageInUnits, weightFromInput, type UnitSystem } from './rules/units';
import { SUCCESS_NOTICE_MS, successNotice } from './shared/notice';

export type WeightHistoryEvent =
  /** A dated entry as typed, the weight in the member's unit, which also words the messages. */
  | { type: 'entry.submitted'; date: string; weight: string; unitSystem: UnitSystem }
  | { type: 'entry.deleted'; id: number }
  | { type: 'history.retried' };

/** Today's date where the member is, as YYYY-MM-DD (the entry form's default and latest day). */
export function localToday(now = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The entries by date, oldest first, the new one replacing any of the same day (as the server does). */
export function withEntry(entries: readonly WeightEntry[], entry: WeightEntry): WeightEntry[] {
  return [...entries.filter((kept) => kept.date !== entry.date && kept.id !== entry.id), entry].sort((a, b) =>
    a.date.localeCompare(b.date),
  );
}

/** The submitted entry with its weight in kg. */
function submittedEntry(event: Extract<WeightHistoryEvent, { type: 'entry.submitted' }>): NewWeightEntry {
  return { date: event.date, weight: weightFromInput(event.weight, event.unitSystem) };
}

const byDate = (entries: readonly WeightEntry[]) => [...entries].sort((a, b) => a.date.localeCompare(b.date));

/**
 * The weight history of the Goals tab: loads the member's entries (Retry after a failure), adds a
 * dated entry after checking it ('Weight entry saved' for 3 s, like the profile's other notices),
 * deletes one. The entries stay shown while a change is under way.
 */
export const weightHistoryMachine = setup({
  types: {
    context: {} as { entries: WeightEntry[]; error: string | null },
    events: {} as WeightHistoryEvent,
  },
  actors: {
    loadEntries: fromPromise<WeightEntry[]>(({ signal }) => getWeightEntries({ signal })),
    addEntry: fromPromise<WeightEntry, NewWeightEntry>(({ input, signal }) => addWeightEntry(input, { signal })),
    // Answers the deleted id, so the list drops exactly that entry.
    deleteEntry: fromPromise<number, { id: number }>(async ({ input, signal }) => {
      await deleteWeightEntry(input.id, { signal });
      return input.id;
    }),
  },
  guards: {
    entryInvalid: ({ event }) => {
      assertEvent(event, 'entry.submitted');
      return weightEntryError(submittedEntry(event)) !== null;
    },
  },
  delays: {
    successMessage: SUCCESS_NOTICE_MS,
  },
}).createMachine({
  id: 'weightHistory',
  context: { entries: [], error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'loadEntries',
        src: 'loadEntries',
        onDone: { target: 'loaded', actions: assign({ entries: ({ event }) => byDate(event.output), error: null }) },
        onError: {
          target: 'failure',
          actions: assign({ error: ({ event }) => errorMessage(event.error, progressFallbacks.loadFailed) }),
        },
      },
    },
    failure: {
      on: { 'history.retried': 'loading' },
    },
    loaded: {
      initial: 'idle',
      states: {
        idle: {},
        invalid: {},
        refused: {},
        adding: {
          tags: ['busy'],
          on: { 'entry.submitted': {}, 'entry.deleted': {} },
          invoke: {
            // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
            id: 'addEntry',
            src: 'addEntry',
            input: ({ event }) => {
              assertEvent(event, 'entry.submitted');
              return submittedEntry(event);
            },
            onDone: { target: 'added', actions: assign({ entries: ({ context, event }) => withEntry(context.entries, event.output) }) },
            onError: {
              target: 'refused',
              actions: assign({ error: ({ event }) => errorMessage(event.error, progressFallbacks.saveFailed) }),
            },
          },
        },
        added: successNotice('idle'),
        deleting: {
          tags: ['busy'],
          on: { 'entry.submitted': {}, 'entry.deleted': {} },
          invoke: {
            // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
            id: 'deleteEntry',
            src: 'deleteEntry',
            input: ({ event }) => {
              assertEvent(event, 'entry.deleted');
              return { id: event.id };
            },
            onDone: {
              target: 'idle',
              actions: assign({ entries: ({ context, event }) => context.entries.filter((entry) => entry.id !== event.output) }),
            },
            onError: {
              target: 'refused',
              actions: assign({ error: ({ event }) => errorMessage(event.error, progressFallbacks.deleteFailed) }),
            },
          },
        },
      },
      on: {
        'entry.submitted': [
          {
            guard: 'entryInvalid',
            target: '.invalid',
            actions: assign({ error: ({ event }) => messageInUnits(weightEntryError(submittedEntry(event)), event.unitSystem) }),
          },
          { target: '.adding', actions: assign({ error: null }) },
        ],
        'entry.deleted': { target: '.deleting', actions: assign({ error: null }) },
      },
    },
  },
});
