// @ts-nocheck
import { describe, expect, it } from 'vitest';

// Loaded on demand: a definition XState rejects (a missing initial state, an unknown target) throws while its
// module loads, and this names the file instead of leaving the flow's own test file with no tests at all.
const machineModules = import.meta.glob<Record<string, unknown>>('../../../machines/*.machine.ts');

function isStateMachine(value: unknown): value is { id: string; root: unknown } {
  return typeof value === 'object' && value !== null && 'root' in value && 'implementations' in value;
}

describe('machines/*.machine.ts', () => {
  it('finds the machine files', () => {
    expect(Object.keys(machineModules).length).toBeGreaterThan(0);
  });

  it.each(Object.keys(machineModules).sort())('%s is a valid machine named after its file', async (path) => {
    const flow = path.replace(/^.*\//, '').replace(/\.machine\.ts$/, '');
    const machines = Object.values(await machineModules[path]()).filter(isStateMachine);
    // The id names the flow in docs/flows.md and in the Stately inspector.
    expect(machines.map((machine) => machine.id)).toContain(flow);
  });
});
