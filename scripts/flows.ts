/// <reference types="node" />
/// <reference types="vite/client" />
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import { childStates, machineTransitions, whenText, type MachineTransition, type StateNode } from './machineDefinition';

/**
 * `npm run flows`: docs/flows.md, one Mermaid state diagram per machine in machines/*.machine.ts,
 * drawn from the machine definitions (states, events, guards, delays, invoked actors, tags).
 * tests/unit/flowsDoc.test.ts fails when the committed file is not current.
 */

const rootDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const flowsDocPath = join(rootDir, 'docs', 'flows.md');

/** Mermaid ids allow letters, digits and underscores; XState ids are dotted paths. */
function mermaidId(node: StateNode): string {
  return node.id.replace(/[^A-Za-z0-9_]/g, '_');
}

/** Text Mermaid shows as is: no quotes, colons, semicolons, braces, angle brackets or '#'. */
function label(text: string): string {
  return text
    .replace(/[^A-Za-z0-9 ._\-()[\]/,=+!&|]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A quoted state description may also hold colons and semicolons. */
function stateLabel(text: string): string {
  return text
    .replace(/[^A-Za-z0-9 ._\-()[\]/,=+!&|:;]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function transitionLabel(transition: MachineTransition): string {
  let text = whenText(transition);
  if (transition.actions.length > 0) text += ` / ${transition.actions.join(', ')}`;
  if (transition.ignored) text += ' (ignored)';
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

function renderNode(node: StateNode, indent: string, lines: string[]): void {
  const id = mermaidId(node);
  lines.push(`${indent}state "${stateTitle(node)}" as ${id}`);
  const children = childStates(node);
  if (children.length > 0) {
    lines.push(`${indent}state ${id} {`);
    renderChildren(node, `${indent}  `, lines);
    lines.push(`${indent}}`);
  }
}

function renderChildren(parent: StateNode, indent: string, lines: string[]): void {
  const children = childStates(parent);
  if (parent.type === 'parallel') {
    children.forEach((child, index) => {
      if (index > 0) lines.push(`${indent}--`);
      renderNode(child, indent, lines);
    });
    return;
  }
  for (const child of children) renderNode(child, indent, lines);
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
  const transitions = machineTransitions(machine);
  if (transitions.some((transition) => transition.source === machine.root)) lines.push(`  state "any state" as ${anyStateId}`);
  for (const transition of transitions) {
    const source = transition.source === machine.root ? anyStateId : mermaidId(transition.source);
    const targets = transition.targets.length > 0 ? transition.targets.map(mermaidId) : [source];
    for (const target of targets) lines.push(`  ${source} --> ${target} : ${transitionLabel(transition)}`);
  }
}

export function machineDiagram(machine: AnyStateMachine): string {
  const lines = ['stateDiagram-v2'];
  if (machine.root.type === 'parallel') {
    // Mermaid only accepts regions ('--') inside a composite state.
    renderNode(machine.root, '  ', lines);
    lines.push(`  [*] --> ${mermaidId(machine.root)}`);
  } else {
    renderChildren(machine.root, '  ', lines);
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
      sections.push(
        `## ${machine.id}\n\nSource: [machines/${file}](../machines/${file})\n\n\`\`\`mermaid\n${machineDiagram(machine)}\n\`\`\``,
      );
    }
  }
  return [
    '# Flow diagrams',
    '',
    'Generated by `npm run flows` from the machines in `machines/`; do not edit by hand.',
    'Each arrow is a transition, labelled with its event, `[guard]` (`[otherwise]` when guarded ones come first)',
    'and `/ named actions`.',
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
