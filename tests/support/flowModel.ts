import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine, StateValue } from 'xstate';
import { createTestModel, type StatePath } from 'xstate/graph';
import { isLeaf, machineStates, machineTransitions, transitionKey, transitionLine } from '../../scripts/machineDefinition';

/**
 * A flow's test model is a plain state graph written from the spec: no context, no guards, no delays,
 * events as a person or the server causes them (time passing is an event too). Its snapshots are
 * named by their leaf state, e.g. "codeEntry.failure".
 */
export function modelStateKey(value: StateValue): string {
  if (typeof value === 'string') return value;
  const entries = Object.entries(value);
  if (entries.length !== 1) throw new Error(`A test model has no parallel states: ${JSON.stringify(value)}`);
  const [[parent, child]] = entries;
  return child === undefined ? parent : `${parent}.${modelStateKey(child)}`;
}

/** One path through a test model: its snapshots and the events between them (the first is xstate.init). */
export type ModelPath = StatePath<AnyMachineSnapshot, AnyEventObject>;

/** Every leaf state of the model, e.g. ["closed", "idle", "confirming", ...]. */
export function modelLeafStates(model: AnyStateMachine): string[] {
  return machineStates(model)
    .filter(isLeaf)
    .map((node) => node.path.join('.'));
}

/** Every event type the model's definition mentions. */
export function modelEventTypes(model: AnyStateMachine): string[] {
  return [...new Set(machineTransitions(model).map((transition) => transition.eventType))];
}

/**
 * Paths through the model that take each of its transitions: xstate/graph's shortest path to every
 * state as reached by each transition into it, without the paths that are the start of a longer one
 * (the longer replay checks the same screens). A state is told apart by how it was reached even when
 * a transition stays in it, so that every transition gets a path.
 */
export function modelPaths(model: AnyStateMachine): ModelPath[] {
  const testModel = createTestModel(model, {
    serializeTransition: (_state, event, previous) => (event && previous ? ` via ${event.type} from ${modelStateKey(previous.value)}` : ''),
  });
  return testModel.getShortestPaths();
}

/** "notOpened → page.opened → idle → deletion.requested → confirming" */
export function describeModelPath(path: ModelPath, upTo = path.steps.length): string {
  return path.steps
    .slice(0, upTo)
    .map((step, index) => (index === 0 ? modelStateKey(step.state.value) : `${step.event.type} → ${modelStateKey(step.state.value)}`))
    .join(' → ');
}

/** The model states and transitions no path reaches (empty when the model is connected). */
export function modelGaps(model: AnyStateMachine, paths: readonly ModelPath[]): string[] {
  const reached = new Set(paths.flatMap((path) => path.steps.map((step) => modelStateKey(step.state.value))));
  const taken = new Set(
    paths.flatMap((path) =>
      path.steps.slice(1).flatMap((step, index) => model.getTransitionData(path.steps[index].state, step.event).map(transitionKey)),
    ),
  );
  return [
    ...modelLeafStates(model)
      .filter((state) => !reached.has(state))
      .map((state) => `model state ${state} is never reached`),
    ...machineTransitions(model)
      .filter((transition) => !taken.has(transition.key))
      .map((transition) => `model transition ${transitionLine(transition)} is never taken`),
  ];
}
