import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { passkeyMessages, type PasskeySummary } from '../server/src/contract/passkeys';
import { errorMessage } from './services/errors';
import { addPasskey, listPasskeys, removePasskey } from './services/passkeys';

export type PasskeysEvent =
  | { type: 'passkeys.reloaded' }
  | { type: 'add.requested'; name: string }
  | { type: 'remove.requested'; id: number }
  | { type: 'remove.confirmed' }
  | { type: 'remove.cancelled' };

type PasskeysContext = {
  passkeys: PasskeySummary[];
  /** The passkey whose removal waits for the member's confirmation, or is under way. */
  removing: PasskeySummary | null;
  error: string | null;
  notice: string | null;
};

/** The member closed the browser's passkey dialog: said calmly, not as an error. */
const cancelledByMember = (error: unknown) => error instanceof Error && error.name === 'PasskeyCancelledError';

/** The Security tab's passkeys: the list (name, created, last used), Add with a name, Remove after a confirmation. */
export const passkeysMachine = setup({
  types: {
    context: {} as PasskeysContext,
    events: {} as PasskeysEvent,
  },
  actors: {
    listPasskeys: fromPromise<PasskeySummary[]>(({ signal }) => listPasskeys({ signal })),
    addPasskey: fromPromise<PasskeySummary, { name: string }>(({ input, signal }) => addPasskey(input.name, { signal })),
    removePasskey: fromPromise<void, { id: number }>(({ input, signal }) => removePasskey(input.id, { signal })),
  },
  guards: {
    cancelledByMember: ({ event }) => 'error' in event && cancelledByMember(event.error),
    listed: ({ context, event }) => {
      assertEvent(event, 'remove.requested');
      return context.passkeys.some((passkey) => passkey.id === event.id);
    },
  },
}).createMachine({
  id: 'passkeys',
  context: { passkeys: [], removing: null, error: null, notice: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'listPasskeys',
        src: 'listPasskeys',
        onDone: { target: 'idle', actions: assign({ passkeys: ({ event }) => event.output }) },
        onError: {
          target: 'loadFailure',
          actions: assign({ error: ({ event }) => errorMessage(event.error, passkeyMessages.loadFailed) }),
        },
      },
    },
    loadFailure: {
      on: { 'passkeys.reloaded': { target: 'loading', actions: assign({ error: null }) } },
    },
    idle: {
      on: {
        'add.requested': { target: 'adding', actions: assign({ error: null, notice: null }) },
        'remove.requested': {
          guard: 'listed',
          target: 'confirmingRemoval',
          actions: assign({
            // Stryker disable next-line LogicalOperator: the guard lets only a listed id in.
            removing: ({ context, event }) => context.passkeys.find((passkey) => passkey.id === event.id) ?? null,
            error: null,
            notice: null,
          }),
        },
      },
    },
    adding: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'addPasskey',
        src: 'addPasskey',
        input: ({ event }) => {
          assertEvent(event, 'add.requested');
          return { name: event.name };
        },
        onDone: {
          target: 'idle',
          actions: assign({ passkeys: ({ context, event }) => [...context.passkeys, event.output], notice: passkeyMessages.added }),
        },
        onError: [
          { guard: 'cancelledByMember', target: 'idle', actions: assign({ notice: passkeyMessages.addCancelled }) },
          { target: 'idle', actions: assign({ error: ({ event }) => errorMessage(event.error, passkeyMessages.addFailed) }) },
        ],
      },
    },
    confirmingRemoval: {
      on: {
        'remove.confirmed': 'removing',
        'remove.cancelled': { target: 'idle', actions: assign({ removing: null }) },
      },
    },
    removing: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'removePasskey',
        src: 'removePasskey',
        // Stryker disable next-line OptionalChaining,LogicalOperator,UnaryOperator: remove.requested, the only way in, chose a listed passkey.
        input: ({ context }) => ({ id: context.removing?.id ?? -1 }),
        onDone: {
          target: 'idle',
          actions: assign({
            // Stryker disable next-line OptionalChaining: remove.requested, the only way in, chose a listed passkey.
            passkeys: ({ context }) => context.passkeys.filter((passkey) => passkey.id !== context.removing?.id),
            removing: null,
            notice: passkeyMessages.removed,
          }),
        },
        onError: {
          target: 'idle',
          actions: assign({ removing: null, error: ({ event }) => errorMessage(event.error, passkeyMessages.removeFailed) }),
        },
      },
    },
  },
});
