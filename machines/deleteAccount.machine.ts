import { assign, fromPromise, setup } from 'xstate';
import { DELETE_ACCOUNT_FALLBACK, deleteAccount } from '../src/api/account';
import { errorMessage } from '../src/api/errors';
import type { NavigationRequest } from '../src/lib/navigation';

/** SPEC §9: the logged-out delete page redirects after 2 seconds. */
export const LOGIN_REDIRECT_DELAY_MS = 2000;
export const LOGIN_REDIRECT = '/login?from=%2Fdelete-profile';

export type DeleteAccountEvent =
  | { type: 'deletion.requested' }
  | { type: 'deletion.confirmed' }
  | { type: 'deletion.cancelled' };

export const deleteAccountMachine = setup({
  types: {
    context: {} as { loggedIn: boolean; error: string | null },
    events: {} as DeleteAccountEvent,
    input: {} as { loggedIn: boolean },
  },
  actors: {
    deleteAccount: fromPromise<void>(({ signal }) => deleteAccount({ signal })),
  },
  actions: {
    navigate: (_, _request: NavigationRequest) => {},
    /** Tells the session the account is gone: it forgets the token and goes to /login. */
    accountDeleted: () => {},
  },
  delays: {
    loginRedirectDelay: LOGIN_REDIRECT_DELAY_MS,
  },
  guards: {
    loggedIn: ({ context }) => context.loggedIn,
  },
}).createMachine({
  id: 'deleteAccount',
  context: ({ input }) => ({ loggedIn: input.loggedIn, error: null }),
  initial: 'start',
  states: {
    start: {
      always: [{ guard: 'loggedIn', target: 'idle' }, { target: 'loggedOut' }],
    },
    loggedOut: {
      after: {
        loginRedirectDelay: {
          target: 'redirected',
          actions: { type: 'navigate', params: { href: LOGIN_REDIRECT, replace: true } },
        },
      },
    },
    redirected: { type: 'final' },
    idle: {
      on: { 'deletion.requested': 'confirming' },
    },
    confirming: {
      tags: ['dialog'],
      on: {
        'deletion.confirmed': 'deleting',
        'deletion.cancelled': 'idle',
      },
    },
    deleting: {
      tags: ['dialog', 'busy'],
      invoke: {
        id: 'deleteAccount',
        src: 'deleteAccount',
        onDone: 'done',
        onError: {
          target: 'failure',
          actions: assign({ error: ({ event }) => errorMessage(event.error, DELETE_ACCOUNT_FALLBACK) }),
        },
      },
    },
    done: {
      type: 'final',
      entry: 'accountDeleted',
    },
    failure: {
      on: {
        'deletion.requested': { target: 'confirming', actions: assign({ error: null }) },
      },
    },
  },
});
