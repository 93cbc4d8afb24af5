// @ts-nocheck
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths, serializeSnapshot, type StatePath } from 'xstate/graph';

export type ModelPath = StatePath<AnyMachineSnapshot, AnyEventObject>;

/**
 * One path per transition of the machine: the shortest path to each reachable
 * snapshot, extended by each event that changes it. Together they reach every
 * state and take every transition the given events can trigger.
 */
export function transitionCoveringPaths(
  machine: AnyStateMachine,
  options: {
    events: readonly AnyEventObject[];
    input?: unknown;
    /** Paths whose last transition has the same key are replayed once (the shortest). */
    transitionKey?: (state: AnyMachineSnapshot, event: AnyEventObject) => string;
  },
): ModelPath[] {
  const traversal = { events: options.events, input: options.input };
  const shortest = new Map<string, ModelPath>();
  for (const path of getShortestPaths(machine, traversal)) {
    shortest.set(serializeSnapshot(path.state), path);
  }
  const paths = new Map<string, ModelPath>();
  for (const { state, event, nextState } of adjacencyMapToArray(getAdjacencyMap(machine, traversal))) {
    const head = shortest.get(serializeSnapshot(state));
    if (!head || serializeSnapshot(nextState) === serializeSnapshot(state)) continue;
    const key = options.transitionKey?.(state, event) ?? `${serializeSnapshot(state)}|${JSON.stringify(event)}`;
    const known = paths.get(key);
    if (known && known.weight <= head.weight + 1) continue;
    paths.set(key, { state: nextState, steps: [...head.steps, { event, state: nextState }], weight: head.weight + 1 });
  }
  return [...paths.values()];
}

export function describePath(path: ModelPath, describeEvent: (event: AnyEventObject) => string = (event) => event.type): string {
  return path.steps
    .slice(1)
    .map(({ event }) => describeEvent(event))
    .join(' → ');
}

/**
 * Every leaf state id of the machine, e.g. "authSession.loggedOut.idle", but transient ones: a state
 * that only decides where to go (`always`, no events, nothing invoked) is never a snapshot.
 */
export function leafStateIds(machine: AnyStateMachine): string[] {
  const ids: string[] = [];
  const visit = (node: AnyStateMachine['root']) => {
    const children = Object.values(node.states);
    const transient = (node.always?.length ?? 0) > 0 && Object.keys(node.on).length === 0 && node.invoke.length === 0;
    if (children.length === 0 && !transient) ids.push(node.id);
    children.forEach(visit);
  };
  visit(machine.root);
  return ids;
}
