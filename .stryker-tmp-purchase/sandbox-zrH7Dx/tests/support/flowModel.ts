// @ts-nocheck
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine, StateValue } from 'xstate';
import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths, serializeSnapshot } from 'xstate/graph';
import type { ModelPath } from './modelPaths';

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

type ModelNode = AnyStateMachine['root'];

function modelNodes(model: AnyStateMachine): ModelNode[] {
  const nodes: ModelNode[] = [];
  const visit = (node: ModelNode) => {
    nodes.push(node);
    Object.values(node.states).forEach(visit);
  };
  visit(model.root);
  return nodes;
}

/** Every leaf state of the model, e.g. ["closed", "idle", "confirming", ...]. */
export function modelLeafStates(model: AnyStateMachine): string[] {
  return modelNodes(model)
    .filter((node) => Object.keys(node.states).length === 0)
    .map((node) => node.path.join('.'));
}

/** Every event type the model's definition mentions. */
export function modelEventTypes(model: AnyStateMachine): string[] {
  return [...new Set(modelNodes(model).flatMap((node) => Object.keys(node.on)))];
}

/**
 * Paths through the model that take each of its transitions once: the shortest path to the
 * transition's source, then the transition. A path that is the start of a longer one is dropped,
 * since the longer replay checks the same screens.
 */
export function modelPaths(model: AnyStateMachine): ModelPath[] {
  const traversal = { events: modelEventTypes(model).map((type): AnyEventObject => ({ type })) };
  const shortest = new Map<string, ModelPath>();
  for (const path of getShortestPaths(model, traversal)) shortest.set(serializeSnapshot(path.state), path);
  const byTransition = new Map<string, ModelPath>();
  for (const { state, event, nextState } of adjacencyMapToArray(getAdjacencyMap(model, traversal))) {
    // The adjacency map tries every event in every state; keep those the model defines.
    if (model.getTransitionData(state, event).length === 0) continue;
    const head = shortest.get(serializeSnapshot(state));
    if (!head) continue;
    byTransition.set(`${serializeSnapshot(state)}|${event.type}`, {
      state: nextState,
      steps: [...head.steps, { event, state: nextState }],
      weight: head.weight + 1,
    });
  }
  const paths = [...byTransition.values()];
  const signature = (path: ModelPath) => path.steps.slice(1).map(({ event }) => event.type);
  return paths.filter((path) => {
    const own = signature(path);
    return !paths.some((other) => {
      const longer = signature(other);
      return longer.length > own.length && own.every((type, index) => longer[index] === type);
    });
  });
}

/** "closed → page.opened → idle → deletion.requested → confirming" */
export function describeModelPath(path: ModelPath, upTo = path.steps.length): string {
  return path.steps
    .slice(0, upTo)
    .map((step, index) => (index === 0 ? modelStateKey(step.state.value) : `${step.event.type} → ${modelStateKey(step.state.value)}`))
    .join(' → ');
}

/** The model states and transitions no path reaches (empty when the model is connected). */
export function modelGaps(model: AnyStateMachine, paths: readonly ModelPath[]): string[] {
  const steps = paths.flatMap((path) => path.steps);
  const reached = new Set(steps.map((step) => modelStateKey(step.state.value)));
  const taken = new Set(
    paths.flatMap((path) => path.steps.slice(1).map((step, index) => `${modelStateKey(path.steps[index].state.value)}|${step.event.type}`)),
  );
  const gaps = modelLeafStates(model)
    .filter((state) => !reached.has(state))
    .map((state) => `model state ${state} is never reached`);
  const snapshots = new Map<string, AnyMachineSnapshot>(steps.map((step) => [modelStateKey(step.state.value), step.state]));
  for (const [key, snapshot] of snapshots) {
    for (const type of modelEventTypes(model)) {
      if (model.getTransitionData(snapshot, { type }).length > 0 && !taken.has(`${key}|${type}`)) {
        gaps.push(`model transition ${key} --${type}--> is never taken`);
      }
    }
  }
  return gaps;
}
