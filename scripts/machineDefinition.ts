import type { AnyStateMachine, AnyTransitionDefinition } from 'xstate';
import { getStateNodes } from 'xstate/graph';

/**
 * One reading of a machine's definition, shared by `npm run flows` (docs/flows.md) and the path
 * tests (the completeness check, the model self-check): its states, and every `on`, `after`,
 * `always`, `onDone` and `onError` transition with what triggers it, its guard and named actions.
 */

export type StateNode = AnyStateMachine['root'];

export type Trigger =
  | { kind: 'event' }
  | { kind: 'always' }
  /** `ms` is the delay's milliseconds, when the machine's `delays` give a number. */
  | { kind: 'after'; delay: string | number; ms: number | undefined }
  /** The outcome of the actor the state invokes. */
  | { kind: 'done' | 'error' | 'snapshot'; actor: string }
  /** A compound state's `onDone`: a final child was reached. */
  | { kind: 'finished' };

export type MachineTransition = {
  /** Unique in the machine; `transitionKey` gives the same for the definition xstate selects at run time. */
  key: string;
  definition: AnyTransitionDefinition;
  source: StateNode;
  /** xstate's event type: `xstate.after.*`, `xstate.done.actor.*`… for the ones the machine raises itself. */
  eventType: string;
  trigger: Trigger;
  /** The guard's name ('a & b', 'not a' for combined ones); 'otherwise' for an unguarded one after guarded siblings. */
  guard: string | undefined;
  /** The named actions; inline assign()/sendTo() have no name a reader can look up. */
  actions: string[];
  /** Empty when the transition stays in its state. */
  targets: StateNode[];
  /** No target, no action, no re-entry: the state only swallows the event. */
  ignored: boolean;
};

/** The machine's root and every state below it, parents before children, in document order. */
export function machineStates(machine: AnyStateMachine): StateNode[] {
  return [machine.root, ...getStateNodes(machine.root)];
}

export const childStates = (node: StateNode): StateNode[] => Object.values(node.states);

export const isLeaf = (node: StateNode) => childStates(node).length === 0;

/** "codeEntry.failure"; "(any state)" for the machine itself. */
export const statePath = (node: StateNode) => (node.path.length > 0 ? node.path.join('.') : '(any state)');

/** The transitions leaving a node for one event type, `always` included, in document order. */
function siblings(transition: AnyTransitionDefinition): readonly AnyTransitionDefinition[] {
  const { source, eventType } = transition;
  return eventType === '' ? (source.always ?? []) : (source.on[eventType] ?? []);
}

export function transitionKey(transition: AnyTransitionDefinition): string {
  return `${transition.source.id}#${transition.eventType}#${siblings(transition).indexOf(transition)}`;
}

function trigger(machine: AnyStateMachine, transition: AnyTransitionDefinition): Trigger {
  const { eventType, source } = transition;
  if (eventType === '') return { kind: 'always' };
  const delayed = source.after.find((candidate) => candidate === transition);
  if (delayed) {
    // A delay is a number, a name in the machine's `delays`, or an inline function.
    const delay = typeof delayed.delay === 'function' ? 'inline' : delayed.delay;
    const configured: unknown = typeof delay === 'string' ? machine.implementations.delays[delay] : delay;
    return { kind: 'after', delay, ms: typeof configured === 'number' ? configured : undefined };
  }
  for (const invoked of source.invoke) {
    if (eventType === `xstate.done.actor.${invoked.id}`) return { kind: 'done', actor: invoked.id };
    if (eventType === `xstate.error.actor.${invoked.id}`) return { kind: 'error', actor: invoked.id };
    if (eventType === `xstate.snapshot.${invoked.id}`) return { kind: 'snapshot', actor: invoked.id };
  }
  if (eventType === `xstate.done.state.${source.id}`) return { kind: 'finished' };
  return { kind: 'event' };
}

function guardName(guard: unknown): string | undefined {
  if (guard === undefined) return undefined;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && guard !== null && 'type' in guard) return String(guard.type);
  if (typeof guard === 'function') {
    // xstate's and()/or()/not() helpers carry their operands.
    const combined = guard as { guards?: unknown[]; name?: string };
    if (Array.isArray(combined.guards)) {
      const operands = combined.guards.map((operand) => guardName(operand) ?? 'inline');
      return operands.length === 1 ? `not ${operands[0]}` : operands.join(' & ');
    }
    return combined.name && combined.name !== 'guard' ? combined.name : 'inline guard';
  }
  return 'guard';
}

function actionNames(transition: AnyTransitionDefinition): string[] {
  return transition.actions.flatMap((action: unknown) => {
    if (typeof action === 'string') return [action];
    if (typeof action === 'object' && action !== null && 'type' in action) return [String(action.type)];
    return [];
  });
}

function readTransition(machine: AnyStateMachine, definition: AnyTransitionDefinition): MachineTransition {
  const targets = [...(definition.target ?? [])];
  return {
    key: transitionKey(definition),
    definition,
    source: definition.source,
    eventType: definition.eventType,
    trigger: trigger(machine, definition),
    guard: guardName(definition.guard) ?? (siblings(definition).length > 1 ? 'otherwise' : undefined),
    actions: actionNames(definition),
    targets,
    ignored: targets.length === 0 && definition.actions.length === 0 && !definition.reenter,
  };
}

/** Every transition of the machine: each state's, parents before children, `on` (with the xstate.* ones) then `always`. */
export function machineTransitions(machine: AnyStateMachine): MachineTransition[] {
  return machineStates(machine).flatMap((node) =>
    [...Object.values(node.on).flat(), ...(node.always ?? [])].map((definition) => readTransition(machine, definition)),
  );
}

/** "after notice (1500 ms)", "done login", "always", or the event type. */
export function triggerText({ trigger, eventType }: MachineTransition): string {
  switch (trigger.kind) {
    case 'always':
      return 'always';
    case 'after':
      if (typeof trigger.delay === 'number') return `after ${trigger.delay} ms`;
      return `after ${trigger.delay} (${trigger.ms === undefined ? 'computed' : `${trigger.ms} ms`})`;
    case 'done':
    case 'error':
    case 'snapshot':
      return `${trigger.kind} ${trigger.actor}`;
    case 'finished':
      return 'done (final child)';
    case 'event':
      return eventType;
  }
}

/** "after notice (1500 ms) [hasMore]": what takes the transition. */
export const whenText = (transition: MachineTransition) =>
  transition.guard ? `${triggerText(transition)} [${transition.guard}]` : triggerText(transition);

/** "confirming --after 60000 ms--> idle", as a failure names a transition. */
export function transitionLine(transition: MachineTransition): string {
  const targets = transition.targets.length > 0 ? transition.targets.map((node) => node.path.join('.')).join(', ') : '(stays)';
  return `${statePath(transition.source)} --${whenText(transition)}--> ${targets}`;
}
