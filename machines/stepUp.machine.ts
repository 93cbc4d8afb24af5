import { assertEvent, assign, emit, fromPromise, setup, type ActorRefFrom } from 'xstate';
import { stepUpMessages, type StepUpMethod } from '../server/src/contract/stepUp';
import { errorMessage } from './services/errors';
import type { StepUpProof } from './services/stepUp';

export type StepUpEvent =
  /** A guarded call was refused for want of a recent proof: the member is asked. */
  | { type: 'stepUp.requested'; methods: StepUpMethod[] }
  /** The password, or the code when two-factor is on (the dialog shows the one that applies). */
  | { type: 'stepUp.submitted'; secret: string }
  | { type: 'stepUp.passkeyChosen' }
  | { type: 'stepUp.cancelled' };

/** What the waiting calls hear (machines/shared/stepUpGate.ts): carry on, or give up. */
export type StepUpEmitted = { type: 'stepUp.finished'; confirmed: boolean };

type StepUpContext = { methods: StepUpMethod[]; error: string | null };

/** What the dialog's field takes: the two-factor code replaces the password when two-factor is on. */
export const typedMethod = (methods: readonly StepUpMethod[]): 'password' | 'code' => (methods.includes('code') ? 'code' : 'password');

/** Whether the dialog has a field at all (not for a member whose only way is a passkey). */
export const hasTypedMethod = (methods: readonly StepUpMethod[]): boolean => methods.some((method) => method !== 'passkey');

/**
 * Step-up (docs/security.md#step-up): the dialog that asks a member to prove presence again before a
 * guarded action, over whatever page they are on. The action waits meanwhile, and carries on once
 * the proof is recorded on the session (or fails with the server's words when the member cancels).
 */
export const stepUpMachine = setup({
  types: {
    context: {} as StepUpContext,
    events: {} as StepUpEvent,
    emitted: {} as StepUpEmitted,
  },
  actors: {
    // The API client and WebAuthn load with the first proof: the root layout starts this actor at first paint.
    confirm: fromPromise<void, StepUpProof>(async ({ input, signal }) =>
      (await import('./services/stepUp')).confirmStepUp(input, { signal }),
    ),
  },
  actions: {
    reportConfirmed: emit({ type: 'stepUp.finished', confirmed: true }),
    reportCancelled: emit({ type: 'stepUp.finished', confirmed: false }),
  },
}).createMachine({
  id: 'stepUp',
  context: { methods: [], error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'stepUp.requested': {
          target: 'asking',
          actions: assign({ methods: ({ event }) => event.methods, error: null }),
        },
      },
    },
    asking: {
      tags: ['dialog'],
      on: {
        'stepUp.submitted': 'verifying',
        'stepUp.passkeyChosen': 'verifying',
        'stepUp.cancelled': { target: 'idle', actions: 'reportCancelled' },
      },
    },
    verifying: {
      tags: ['dialog', 'busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'confirm',
        src: 'confirm',
        input: ({ context, event }): StepUpProof => {
          assertEvent(event, ['stepUp.submitted', 'stepUp.passkeyChosen']);
          if (event.type === 'stepUp.passkeyChosen') return { method: 'passkey' };
          return { method: typedMethod(context.methods), secret: event.secret };
        },
        onDone: { target: 'idle', actions: 'reportConfirmed' },
        onError: {
          target: 'failure',
          actions: assign({ error: ({ event }) => errorMessage(event.error, stepUpMessages.failed) }),
        },
      },
    },
    failure: {
      tags: ['dialog'],
      on: {
        'stepUp.submitted': { target: 'verifying', actions: assign({ error: null }) },
        'stepUp.passkeyChosen': { target: 'verifying', actions: assign({ error: null }) },
        'stepUp.cancelled': { target: 'idle', actions: 'reportCancelled' },
      },
    },
  },
});

export type StepUpActorRef = ActorRefFrom<typeof stepUpMachine>;
