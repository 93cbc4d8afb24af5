import { expect, it } from 'vitest';
import { getInitialSnapshot, type AnyStateMachine, type InspectionEvent } from 'xstate';
import { machineTransitions, statePath } from '../../scripts/machineDefinition';
import { describeModelPath, modelEventTypes, modelGaps, modelLeafStates, modelPaths, modelStateKey, type ModelPath } from './flowModel';
import { transitionRecorder, untakenTransitions } from './productionTransitions';
import { settle } from './settle';

export type Inspect = (inspection: InspectionEvent) => void;

/** Where a screen was reached from: the model event that led there and the state before it. */
export type Arrival = { via: string; from: string };

/**
 * A flow's model-based path test: the model (from the spec), how to open the page for each event
 * leaving the model's first state, how to perform every other model event through the UI or the API
 * doubles, and what a person sees in each model state.
 */
export type FlowPathTest<Page> = {
  /** The production machine's id, named in every failure. */
  flow: string;
  /** The production machine whose every transition the replays must take. */
  machine: AnyStateMachine;
  /**
   * More production machines the replays must take every transition of, e.g. the parent that invokes `machine`;
   * with `events`, only its transitions on those events (the flows whose tests take the others name them).
   */
  alsoMachines?: readonly { machine: AnyStateMachine; events?: readonly string[] }[];
  /** The test model: it must not import the production machine. */
  model: AnyStateMachine;
  /** Renders the app with the production machine (doubles provided) and reports its flow actor to `inspect`. */
  open: Record<string, (inspect: Inspect) => Page | Promise<Page>>;
  perform: Record<string, (page: Page) => unknown>;
  screens: Record<string, (page: Page, arrival: Arrival) => unknown>;
};

function shortMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // Testing Library appends the whole DOM after a blank line.
  return message.split('\n\n')[0];
}

/**
 * Retries `check` until it passes (the UI may still be settling), then fails with what a person
 * expected to see, e.g. "expected the dialog 'Confirm Account Deletion'".
 */
export async function see(what: string, check: () => unknown, timeoutMs = 3000): Promise<void> {
  try {
    await settle(() => void check(), timeoutMs);
  } catch (error) {
    throw new Error(`expected ${what} (${shortMessage(error)})`, { cause: error });
  }
}

/** The model's problems a test author must fix first: unmapped states or events, unreachable parts. */
export function modelProblems<Page>(test: FlowPathTest<Page>, paths: readonly ModelPath[]): string[] {
  const initial = modelStateKey(getInitialSnapshot(test.model).value);
  const states = modelLeafStates(test.model).filter((state) => state !== initial);
  const openers = machineTransitions(test.model)
    .filter((transition) => statePath(transition.source) === initial)
    .map((transition) => transition.eventType);
  const events = modelEventTypes(test.model).filter((type) => !openers.includes(type));
  return [
    ...states.filter((state) => !(state in test.screens)).map((state) => `no screen for model state ${state}`),
    ...Object.keys(test.screens)
      .filter((state) => !states.includes(state))
      .map((state) => `screen for unknown model state ${state}`),
    ...openers.filter((type) => !(type in test.open)).map((type) => `no way to open the page for ${type}`),
    ...events.filter((type) => !(type in test.perform)).map((type) => `no performer for model event ${type}`),
    ...Object.keys(test.perform)
      .filter((type) => !events.includes(type))
      .map((type) => `performer for unknown model event ${type}`),
    ...modelGaps(test.model, paths),
  ].map((problem) => `${test.flow}: ${problem}`);
}

/**
 * Replays one model path against the real app: opens the page, performs each event and checks the
 * screen of each model state. A failure names the flow, the path so far and what was expected.
 */
export async function replayPath<Page>(test: FlowPathTest<Page>, path: ModelPath, inspect: Inspect): Promise<void> {
  const at = async <T>(where: string, action: () => T | Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      throw new Error(`${test.flow}: ${where}: ${shortMessage(error)}`, { cause: error });
    }
  };
  const checkScreen = (page: Page, index: number) =>
    at(describeModelPath(path, index + 1), () => {
      const state = modelStateKey(path.steps[index].state.value);
      const screen = test.screens[state];
      if (!screen) throw new Error(`no screen for model state ${state}`);
      return screen(page, { via: path.steps[index].event.type, from: modelStateKey(path.steps[index - 1].state.value) });
    });
  const [, opening, ...steps] = path.steps;
  const page = await at(describeModelPath(path, 2), () => {
    const open = test.open[opening.event.type];
    if (!open) throw new Error(`no way to open the page for ${opening.event.type}`);
    return open(inspect);
  });
  await checkScreen(page, 1);
  for (const [offset, step] of steps.entries()) {
    const index = offset + 2;
    await at(`${describeModelPath(path, index)} → ${step.event.type}`, () => {
      const perform = test.perform[step.event.type];
      if (!perform) throw new Error(`no performer for model event ${step.event.type}`);
      return perform(page);
    });
    await checkScreen(page, index);
  }
}

/**
 * Registers a flow's path tests: the model's own check, one test per model path, and last the
 * completeness check: every transition of the production machine was taken by some replay.
 */
export function definePathTests<Page>(test: FlowPathTest<Page>): void {
  const paths = modelPaths(test.model);
  const also = test.alsoMachines ?? [];
  const machines = [test.machine, ...also.map((entry) => entry.machine)];
  const recorders = machines.map((machine) => transitionRecorder(machine));
  const recorder = {
    inspect: (inspection: InspectionEvent) => recorders.forEach(({ inspect }) => inspect(inspection)),
  };

  it(`${test.flow} model: every state has a screen, every event a performer, every transition a path`, () => {
    expect(modelProblems(test, paths)).toEqual([]);
  });

  it.each(paths.map((path): [string, ModelPath] => [describeModelPath(path), path]))('%s', (_name, path) =>
    replayPath(test, path, recorder.inspect),
  );

  it(`${test.flow}: the replays take every transition of the production machine`, () => {
    const untaken = machines.flatMap((machine, index) =>
      untakenTransitions(
        index === 0 ? test.flow : `${test.flow} › ${machine.id}`,
        machine,
        recorders[index].taken,
        index === 0 ? undefined : also[index - 1].events,
      ),
    );
    if (untaken.length > 0) throw new Error(untaken.join('\n'));
  });
}
