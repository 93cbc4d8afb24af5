import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import type { StatePath } from 'xstate/graph';

/** One path through a test model: its snapshots and the events between them. */
export type ModelPath = StatePath<AnyMachineSnapshot, AnyEventObject>;
