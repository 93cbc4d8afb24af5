import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { STALE_MESSAGE, committedFlowsDocument, flowsDocument, machineDiagram } from '../../scripts/flows';

describe('docs/flows.md', () => {
  it('matches the diagrams generated from the current machines', () => {
    expect(committedFlowsDocument(), STALE_MESSAGE).toBe(flowsDocument());
  });

  it('has a diagram for every machine file', () => {
    const generated = flowsDocument();
    const machineFiles = Object.keys(import.meta.glob('../../machines/*.machine.ts'));
    expect(machineFiles.length).toBeGreaterThan(0);
    for (const path of machineFiles) {
      const file = path.slice('../../machines/'.length);
      expect(generated, `no diagram for ${file}`).toContain(`Source: [machines/${file}]`);
    }
  });
});

describe('machineDiagram', () => {
  const sample = setup({
    types: { events: {} as { type: 'form.submitted' } | { type: 'odd:name;#{x}' } },
    delays: { notice: 1500 },
    guards: { valid: () => true },
    actions: { track: () => {} },
  }).createMachine({
    id: 'sample',
    initial: 'editing',
    on: { 'odd:name;#{x}': '.done' },
    states: {
      editing: {
        initial: 'idle',
        states: { idle: {}, saved: { tags: ['success'], after: { notice: 'idle' } } },
        on: { 'form.submitted': [{ guard: 'valid', target: '.saved', actions: 'track' }, { target: 'waiting' }] },
      },
      waiting: { after: { 200: 'editing' }, on: { 'form.submitted': {} } },
      done: { type: 'final' },
    },
  });
  const diagram = machineDiagram(sample);

  it('nests states under Mermaid-safe ids and marks initial and final states', () => {
    expect(diagram).toContain('  state sample_editing {\n    state "idle" as sample_editing_idle');
    expect(diagram).toContain('    [*] --> sample_editing_idle');
    expect(diagram).toContain('  [*] --> sample_editing');
    expect(diagram).toContain('  sample_done --> [*]');
  });

  it('labels transitions with event, guard, named actions, delays and tags', () => {
    expect(diagram).toContain('sample_editing --> sample_editing_saved : form.submitted [valid] / track');
    expect(diagram).toContain('sample_editing --> sample_waiting : form.submitted [otherwise]\n');
    expect(diagram).toContain('sample_editing_saved --> sample_editing_idle : after notice (1500 ms)');
    expect(diagram).toContain('sample_waiting --> sample_editing : after 200 ms');
    expect(diagram).toContain('sample_waiting --> sample_waiting : form.submitted (ignored)');
    expect(diagram).toContain('state "saved (tags: success)" as sample_editing_saved');
  });

  it('draws machine-wide transitions from an "any state" node, without characters Mermaid would misread', () => {
    expect(diagram).toContain('sample__anyState --> sample_done : odd name x');
  });
});
