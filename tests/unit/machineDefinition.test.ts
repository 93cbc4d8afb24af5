import { describe, expect, it } from 'vitest';
import { fromPromise, setup } from 'xstate';
import { machineTransitions, transitionLine } from '../../scripts/machineDefinition';
import { describeModelPath, modelGaps, modelPaths } from '../support/flowModel';

describe('machineTransitions', () => {
  const machine = setup({
    types: { events: {} as { type: 'form.submitted' } | { type: 'busy.clicked' } },
    actors: { save: fromPromise(async () => {}) },
    guards: { valid: () => true },
    delays: { notice: 1500 },
    actions: { track: () => {} },
  }).createMachine({
    id: 'sample',
    initial: 'start',
    states: {
      start: { always: [{ guard: 'valid', target: 'editing' }, { target: 'saved' }] },
      editing: { on: { 'form.submitted': { target: 'saving', actions: 'track' } } },
      saving: {
        invoke: { id: 'save', src: 'save', onDone: 'saved', onError: 'editing' },
        on: { 'busy.clicked': {} },
      },
      saved: { after: { notice: 'editing', 60000: 'start' } },
    },
  });

  it('reads every transition, with what takes it, in document order', () => {
    expect(machineTransitions(machine).map(transitionLine)).toEqual([
      'start --always [valid]--> editing',
      'start --always [otherwise]--> saved',
      'editing --form.submitted--> saving',
      'saving --busy.clicked--> (stays)',
      'saving --done save--> saved',
      'saving --error save--> editing',
      'saved --after 60000 ms--> start',
      'saved --after notice (1500 ms)--> editing',
    ]);
  });

  it('names the actions and tells the transitions that do nothing', () => {
    const [submitted, ignored] = machineTransitions(machine).slice(2, 4);
    expect(submitted.actions).toEqual(['track']);
    expect([submitted.ignored, ignored.ignored]).toEqual([false, true]);
  });
});

describe('model paths and the model self-check', () => {
  const model = setup({
    types: { events: {} as { type: 'page.opened' } | { type: 'again' } | { type: 'reload' } | { type: 'leave' } },
  }).createMachine({
    id: 'model',
    initial: 'notOpened',
    states: {
      notOpened: { on: { 'page.opened': 'shown' } },
      // Two transitions staying in the same state: each needs a path of its own.
      shown: { on: { again: 'shown', reload: 'shown', leave: 'gone' } },
      gone: {},
      unreachable: { on: { leave: 'gone' } },
    },
  });
  const paths = modelPaths(model);

  it('take every reachable transition, each path the shortest way there, none the start of another', () => {
    expect(paths.map((path) => describeModelPath(path)).sort()).toEqual([
      'notOpened → page.opened → shown → again → shown',
      'notOpened → page.opened → shown → leave → gone',
      'notOpened → page.opened → shown → reload → shown',
    ]);
  });

  it('names the states and transitions no path reaches', () => {
    expect(modelGaps(model, paths)).toEqual([
      'model state unreachable is never reached',
      'model transition unreachable --leave--> gone is never taken',
    ]);
    const withoutAgain = paths.filter((path) => !describeModelPath(path).includes('again'));
    expect(modelGaps(model, withoutAgain)).toContain('model transition shown --again--> shown is never taken');
  });
});
