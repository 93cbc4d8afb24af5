import type { ActorRefLike, AnyEventObject, AnyMachineSnapshot, AnyStateMachine, InspectionEvent, Snapshot, StateValue } from 'xstate';
import { machineStates, machineTransitions, transitionKey, transitionLine, type StateNode } from '../../scripts/machineDefinition';

function valueOfPath(path: readonly string[]): StateValue {
  return path.slice(0, -1).reduceRight<StateValue>((child, parent) => ({ [parent]: child }), path[path.length - 1]);
}

const isActive = (snapshot: AnyMachineSnapshot, node: StateNode) => node.path.length === 0 || snapshot.matches(valueOfPath(node.path));

/** The `always` transitions that explain a step from `before` to `after` (no xstate API names them). */
function eventlessTransitions(machine: AnyStateMachine, before: AnyMachineSnapshot | undefined, after: AnyMachineSnapshot) {
  return machineStates(machine).flatMap((node) => {
    if (before && !isActive(before, node)) return [];
    const taken = (node.always ?? []).find((transition) => transition.target?.every((target) => isActive(after, target)));
    return taken ? [taken] : [];
  });
}

/**
 * Records which transitions of the production machine the app's flow actors take, from the
 * inspection events they report (public ones only: the event, the snapshot after each microstep).
 * The transitions an event selects are asked of the machine itself (`getTransitionData`).
 */
export function transitionRecorder(machine: AnyStateMachine) {
  const taken = new Set<string>();
  const actors = new Map<ActorRefLike, { snapshot?: AnyMachineSnapshot; event?: AnyEventObject }>();
  const isFlowSnapshot = (snapshot: Snapshot<unknown>): snapshot is AnyMachineSnapshot =>
    'machine' in snapshot &&
    typeof snapshot.machine === 'object' &&
    snapshot.machine !== null &&
    'id' in snapshot.machine &&
    snapshot.machine.id === machine.id;

  const inspect = (inspection: InspectionEvent) => {
    if (inspection.type !== '@xstate.microstep' && inspection.type !== '@xstate.snapshot') return;
    if (!isFlowSnapshot(inspection.snapshot)) return;
    const actor = actors.get(inspection.actorRef) ?? {};
    actors.set(inspection.actorRef, actor);
    if (inspection.type === '@xstate.microstep') {
      const { event, snapshot } = inspection;
      const before = actor.snapshot;
      // An event's first microstep takes the transitions it selects; later ones with the same event are eventless.
      const eventful = before !== undefined && event !== actor.event && event.type !== 'xstate.init';
      // Guarded `always` siblings may share a target (socialCallback's checking → failed): the snapshots
      // can't tell which one ran, so use the transitions xstate reports for the microstep when it does.
      const transitions = eventful
        ? snapshot.machine.getTransitionData(before, event)
        : (inspection._transitions ?? eventlessTransitions(snapshot.machine, before, snapshot));
      transitions.forEach((transition) => taken.add(transitionKey(transition)));
      actor.event = event;
    }
    actor.snapshot = inspection.snapshot;
  };

  return { inspect, taken };
}

/**
 * One line per transition of the production machine no replay took; empty when all were. Transitions
 * that do nothing only say an event is ignored: they don't count. With `events`, only the transitions on
 * those events count (a parent whose other events other flows' tests answer for).
 */
export function untakenTransitions(
  flow: string,
  machine: AnyStateMachine,
  taken: ReadonlySet<string>,
  events?: readonly string[],
): string[] {
  return machineTransitions(machine)
    .filter((transition) => !transition.ignored && (!events || events.includes(transition.eventType)))
    .filter((transition) => !taken.has(transition.key))
    .map((transition) => `${flow}: transition ${transitionLine(transition)} was never taken by a path test`);
}
