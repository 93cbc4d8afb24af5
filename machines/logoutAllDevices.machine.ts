import { assign, fromPromise, sendTo, setup } from 'xstate';
import { LOGOUT_ALL_FALLBACK, logoutAllDevices } from './services/account';
import { errorMessage } from './services/errors';
import type { AuthActorRef } from './authSession.machine';

export type LogoutAllDevicesEvent = { type: 'logoutAll.requested' };

/**
 * "Log out of all devices": the server revokes every token of the member, this device's too,
 * so on success the auth actor forgets the session and shows /login with its notice.
 */
export const logoutAllDevicesMachine = setup({
  types: {
    context: {} as { auth: AuthActorRef; error: string | null },
    events: {} as LogoutAllDevicesEvent,
    input: {} as { auth: AuthActorRef },
  },
  actors: {
    logoutAllDevices: fromPromise<void>(({ signal }) => logoutAllDevices({ signal })),
  },
}).createMachine({
  id: 'logoutAllDevices',
  context: ({ input }) => ({ auth: input.auth, error: null }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'logoutAll.requested': 'submitting' },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'logoutAllDevices',
        src: 'logoutAllDevices',
        onDone: 'done',
        onError: {
          target: 'failure',
          actions: assign({ error: ({ event }) => errorMessage(event.error, LOGOUT_ALL_FALLBACK) }),
        },
      },
    },
    failure: {
      on: { 'logoutAll.requested': { target: 'submitting', actions: assign({ error: null }) } },
    },
    done: {
      type: 'final',
      entry: sendTo(({ context }) => context.auth, { type: 'session.revokedEverywhere' }),
    },
  },
});
