// @ts-nocheck
/// <reference types="node" />
/// <reference types="vite/client" />
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyStateMachine } from 'xstate';

/**
 * `npm run flows`: docs/flows.md, one Mermaid state diagram per machine in machines/*.machine.ts,
 * drawn from the machine definitions (states, events, guards, delays, invoked actors, tags).
 * tests/unit/flowsDoc.test.ts fails when the committed file is not current.
 */

type StateNode = AnyStateMachine['root'];
type Transition = ReturnType<StateNode['transitions']['get']> extends (infer T)[] | undefined ? T : never;

const rootDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const flowsDocPath = join(rootDir, 'docs', 'flows.md');

/** Mermaid ids allow letters, digits and underscores; XState ids are dotted paths. */
function mermaidId(node: StateNode): string {
  return node.id.replace(/[^A-Za-z0-9_]/g, '_');
}

/** Text Mermaid shows as is: no quotes, colons, semicolons, braces, angle brackets or '#'. */
function label(text: string): string {
  return text.replace(/[^A-Za-z0-9 ._\-()[\]/,=+!&|]/g, ' ').replace(/\s+/g, ' ').trim();
}

/** A quoted state description may also hold colons and semicolons. */
function stateLabel(text: string): string {
  return text.replace(/[^A-Za-z0-9 ._\-()[\]/,=+!&|:;]/g, ' ').replace(/\s+/g, ' ').trim();
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

/** Only named actions: inline assign()/sendTo() add nothing a reader can look up. */
function actionNames(transition: Transition): string[] {
  return transition.actions.flatMap((action: unknown) => {
    if (typeof action === 'string') return [action];
    if (typeof action === 'object' && action !== null && 'type' in action) return [String(action.type)];
    return [];
  });
}

function delayText(machine: AnyStateMachine, delay: string | number): string {
  if (typeof delay === 'number') return `after ${delay} ms`;
  const configured: unknown = machine.implementations.delays[delay];
  if (typeof configured === 'number') return `after ${delay} (${configured} ms)`;
  return `after ${delay} (computed)`;
}

function triggerText(machine: AnyStateMachine, node: StateNode, transition: Transition & { delay?: string | number }): string {
  const eventType = transition.eventType;
  if (transition.delay !== undefined) return delayText(machine, transition.delay);
  if (eventType === '') return 'always';
  for (const invoked of node.invoke) {
    if (eventType === `xstate.done.actor.${invoked.id}`) return `done ${invoked.id}`;
    if (eventType === `xstate.error.actor.${invoked.id}`) return `error ${invoked.id}`;
  }
  if (eventType === `xstate.done.state.${node.id}`) return 'done (final child)';
  return eventType;
}

function transitionLabel(machine: AnyStateMachine, node: StateNode, transition: Transition): string {
  const guard = guardName(transition.guard);
  const actions = actionNames(transition);
  let text = triggerText(machine, node, transition);
  if (guard) text += ` [${guard}]`;
  if (actions.length > 0) text += ` / ${actions.join(', ')}`;
  if (!transition.target && actions.length === 0 && transition.actions.length === 0) text += ' (ignored)';
  return label(text);
}

function stateTitle(node: StateNode): string {
  const notes: string[] = [];
  const tags = [...node.tags].sort();
  if (tags.length > 0) notes.push(`tags: ${tags.join(', ')}`);
  const invoked = node.invoke.map((definition) => (typeof definition.src === 'string' ? definition.src : definition.id));
  if (invoked.length > 0) notes.push(`invokes: ${invoked.join(', ')}`);
  return stateLabel(notes.length > 0 ? `${node.key} (${notes.join('; ')})` : node.key);
}

function childNodes(node: StateNode): StateNode[] {
  return Object.values(node.states);
}

function allTransitions(node: StateNode): Transition[] {
  return [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
}

function renderNode(machine: AnyStateMachine, node: StateNode, indent: string, lines: string[]): void {
  const id = mermaidId(node);
  lines.push(`${indent}state "${stateTitle(node)}" as ${id}`);
  const children = childNodes(node);
  if (children.length > 0) {
    lines.push(`${indent}state ${id} {`);
    renderChildren(machine, node, `${indent}  `, lines);
    lines.push(`${indent}}`);
  }
}

function renderChildren(machine: AnyStateMachine, parent: StateNode, indent: string, lines: string[]): void {
  const children = childNodes(parent);
  if (parent.type === 'parallel') {
    children.forEach((child, index) => {
      if (index > 0) lines.push(`${indent}--`);
      renderNode(machine, child, indent, lines);
    });
    return;
  }
  for (const child of children) renderNode(machine, child, indent, lines);
  const initial = parent.initial?.target[0];
  if (initial) lines.push(`${indent}[*] --> ${mermaidId(initial)}`);
  for (const child of children) {
    if (child.type === 'final') lines.push(`${indent}${mermaidId(child)} --> [*]`);
  }
}

/**
 * Transitions are drawn after all states, from the state that declares them. A transition declared on the
 * machine itself (any state) starts at a separate "any state" node, since the machine has no box of its own.
 */
function renderTransitions(machine: AnyStateMachine, lines: string[]): void {
  const anyStateId = `${mermaidId(machine.root)}__anyState`;
  const visit = (node: StateNode) => {
    const source = node === machine.root ? anyStateId : mermaidId(node);
    for (const transition of allTransitions(node)) {
      const text = transitionLabel(machine, node, transition);
      const targets = transition.target?.length ? transition.target.map(mermaidId) : [source];
      for (const target of targets) lines.push(`  ${source} --> ${target} : ${text}`);
    }
    childNodes(node).forEach(visit);
  };
  if (allTransitions(machine.root).length > 0) lines.push(`  state "any state" as ${anyStateId}`);
  visit(machine.root);
}

export function machineDiagram(machine: AnyStateMachine): string {
  const lines = ['stateDiagram-v2'];
  if (machine.root.type === 'parallel') {
    // Mermaid only accepts regions ('--') inside a composite state.
    renderNode(machine, machine.root, '  ', lines);
    lines.push(`  [*] --> ${mermaidId(machine.root)}`);
  } else {
    renderChildren(machine, machine.root, '  ', lines);
  }
  renderTransitions(machine, lines);
  return lines.join('\n');
}

function isStateMachine(value: unknown): value is AnyStateMachine {
  return typeof value === 'object' && value !== null && 'root' in value && 'implementations' in value && 'config' in value;
}

// Eager, so that the modules are loaded before vite's runnerImport closes its module runner.
const machineModules = import.meta.glob<Record<string, unknown>>('../machines/*.machine.ts', { eager: true });

export function flowsDocument(): string {
  const sections: string[] = [];
  for (const path of Object.keys(machineModules).sort()) {
    const file = path.slice('../machines/'.length);
    const exports = machineModules[path];
    const machines = new Set(
      Object.keys(exports)
        .sort()
        .map((name) => exports[name])
        .filter(isStateMachine),
    );
    for (const machine of machines) {
      sections.push(`## ${machine.id}\n\nSource: [machines/${file}](../machines/${file})\n\n\`\`\`mermaid\n${machineDiagram(machine)}\n\`\`\``);
    }
  }
  return [
    '# Flow diagrams',
    '',
    'Generated by `npm run flows` from the machines in `machines/`; do not edit by hand.',
    'Each arrow is a transition, labelled with its event, `[guard]` and `/ named actions`.',
    '`after name (N ms)` is a delayed transition, `always` an eventless one, `done x` / `error x` the outcome',
    'of the invoked actor `x`, and `(ignored)` an event a busy state swallows. Tags and invoked actors follow',
    'the state name.',
    '',
    ...sections.flatMap((section) => [section, '']),
  ].join('\n');
}

export const STALE_MESSAGE = 'docs/flows.md is stale: run npm run flows';

export function committedFlowsDocument(): string {
  return readFileSync(flowsDocPath, 'utf8');
}

export function main(): number {
  writeFileSync(flowsDocPath, flowsDocument());
  console.log(`Wrote ${flowsDocPath}`);
  return 0;
}
