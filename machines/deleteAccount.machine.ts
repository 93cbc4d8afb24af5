import { assign, fromPromise, sendTo, setup } from 'xstate';
import { DELETE_ACCOUNT_FALLBACK, deleteAccount } from './services/account';
import { errorMessage } from './services/errors';
import { safeReturnPath } from './rules/returnPath';
import type { AuthActorRef } from './authSession.machine';

/** SPEC §9: the logged-out delete page redirects after 2 seconds. */
export const LOGIN_REDIRECT_DELAY_MS = 2000;
/** SPEC §6: what /login says to a visitor sent there from this page. */
export const LOGIN_TO_DELETE_NOTICE = 'Please log in to proceed with account deletion';

export type DeleteAccountEvent = { type: 'deletion.requested' } | { type: 'deletion.confirmed' } | { type: 'deletion.cancelled' };

export const deleteAccountMachine = setup({
  types: {
    context: {} as { auth: AuthActorRef; loggedIn: boolean; error: string | null },
    events: {} as DeleteAccountEvent,
    input: {} as { auth: AuthActorRef; loggedIn: boolean },
  },
  actors: {
    deleteAccount: fromPromise<void>(({ signal }) => deleteAccount({ signal })),
  },
  actions: {
    /** The session ends with the account: the auth actor forgets the token and shows /login. */
    endSession: sendTo(({ context }) => context.auth, { type: 'account.deleted' }),
    sendToLogin: sendTo(({ context }) => context.auth, {
      type: 'login.requested',
      notice: LOGIN_TO_DELETE_NOTICE,
      from: safeReturnPath('/delete-profile'),
    }),
  },
  delays: {
    loginRedirectDelay: LOGIN_REDIRECT_DELAY_MS,
  },
  guards: {
    loggedIn: ({ context }) => context.loggedIn,
  },
}).createMachine({
  id: 'deleteAccount',
  context: ({ input }) => ({ auth: input.auth, loggedIn: input.loggedIn, error: null }),
  initial: 'start',
  states: {
    start: {
      always: [{ guard: 'loggedIn', target: 'idle' }, { target: 'loggedOut' }],
    },
    loggedOut: {
      after: {
        loginRedirectDelay: { target: 'redirected', actions: 'sendToLogin' },
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
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
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
      entry: 'endSession',
    },
    failure: {
      on: {
        'deletion.requested': { target: 'confirming', actions: assign({ error: null }) },
      },
    },
  },
});
