import type {
  ActorRefLike,
  AnyEventObject,
  AnyMachineSnapshot,
  AnyStateMachine,
  AnyTransitionDefinition,
  InspectionEvent,
  Snapshot,
  StateValue,
} from 'xstate';

type StateNode = AnyStateMachine['root'];

/** One transition of a production machine, named as a failure message shows it. */
export type ProductionTransition = { key: string; eventType: string; description: string };

function allNodes(machine: AnyStateMachine): StateNode[] {
  const nodes: StateNode[] = [];
  const visit = (node: StateNode) => {
    nodes.push(node);
    Object.values(node.states).forEach(visit);
  };
  visit(machine.root);
  return nodes;
}

/** The transitions leaving a node for one event type, `always` included, in document order. */
function siblings(transition: AnyTransitionDefinition): readonly AnyTransitionDefinition[] {
  const source = transition.source;
  return transition.eventType === '' ? (source.always ?? []) : (source.on[transition.eventType] ?? []);
}

function transitionKey(transition: AnyTransitionDefinition): string {
  return `${transition.source.id}#${transition.eventType}#${siblings(transition).indexOf(transition)}`;
}

const statePath = (node: StateNode) => (node.path.length > 0 ? node.path.join('.') : '(any state)');

function describeEvent(machine: AnyStateMachine, transition: AnyTransitionDefinition): string {
  const { eventType, source } = transition;
  if (eventType === '') return 'always';
  if (eventType.startsWith('xstate.after.')) {
    const delay = source.after.find((delayed) => delayed.eventType === eventType)?.delay;
    if (typeof delay === 'number') return `after ${delay}ms`;
    const resolved = typeof delay === 'string' ? machine.implementations.delays[delay] : undefined;
    return typeof resolved === 'number' ? `after ${delay} (${resolved}ms)` : `after ${String(delay)}`;
  }
  const invoked = /^xstate\.(done|error)\.actor\.(.+)$/.exec(eventType);
  if (invoked) return `${invoked[1] === 'done' ? 'onDone' : 'onError'} ${invoked[2]}`;
  return eventType;
}

function describeGuard(transition: AnyTransitionDefinition): string {
  const { guard } = transition;
  if (typeof guard === 'string') return ` [${guard}]`;
  if (guard && typeof guard === 'object' && 'type' in guard) return ` [${String(guard.type)}]`;
  if (guard) return ' [guarded]';
  return siblings(transition).length > 1 ? ' [otherwise]' : '';
}

function describeTransition(machine: AnyStateMachine, transition: AnyTransitionDefinition): string {
  const targets = transition.target?.length ? transition.target.map((node) => node.path.join('.')).join(', ') : '(stays)';
  return `${statePath(transition.source)} --${describeEvent(machine, transition)}${describeGuard(transition)}--> ${targets}`;
}

/**
 * Every `on`, `after`, `always`, `onDone` and `onError` transition of the machine, read from its
 * definition (xstate lists `after`, `onDone` and `onError` under `on` with their xstate.* event types).
 * Transitions that do nothing (no target, no actions) are left out: they only say an event is ignored.
 */
export function productionTransitions(machine: AnyStateMachine): ProductionTransition[] {
  return allNodes(machine).flatMap((node) =>
    [...Object.values(node.on).flat(), ...(node.always ?? [])]
      .filter((transition) => (transition.target?.length ?? 0) > 0 || transition.actions.length > 0 || transition.reenter)
      .map((transition) => ({
        key: transitionKey(transition),
        eventType: transition.eventType,
        description: describeTransition(machine, transition),
      })),
  );
}

function valueOfPath(path: readonly string[]): StateValue {
  return path.slice(0, -1).reduceRight<StateValue>((child, parent) => ({ [parent]: child }), path[path.length - 1]);
}

const isActive = (snapshot: AnyMachineSnapshot, node: StateNode) => node.path.length === 0 || snapshot.matches(valueOfPath(node.path));

/** The `always` transitions that explain a step from `before` to `after` (no xstate API names them). */
function eventlessTransitions(machine: AnyStateMachine, before: AnyMachineSnapshot | undefined, after: AnyMachineSnapshot) {
  return allNodes(machine).flatMap((node) => {
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
    'machine' in snapshot && typeof snapshot.machine === 'object' && snapshot.machine !== null && 'id' in snapshot.machine && snapshot.machine.id === machine.id;

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

/** One line per production transition no replay took; empty when all were. */
/** `events`: only the transitions on these events count (a parent whose other events other flows' tests answer for). */
export function untakenTransitions(flow: string, machine: AnyStateMachine, taken: ReadonlySet<string>, events?: readonly string[]): string[] {
  return productionTransitions(machine)
    .filter((transition) => !events || events.includes(transition.eventType))
    .filter((transition) => !taken.has(transition.key))
    .map((transition) => `${flow}: transition ${transition.description} was never taken by a path test`);
}
