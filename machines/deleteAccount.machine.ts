import { assign, fromPromise, sendTo, setup } from 'xstate';
import { DELETE_ACCOUNT_FALLBACK, deleteAccount } from './services/account';
import { getCurrentSubscription } from './services/subscriptions';
import { holdsPlan, type CurrentSubscriptionAnswer } from '../server/src/contract/subscriptions';
import { errorMessage } from './services/errors';
import { safeReturnPath } from './rules/returnPath';
import type { AuthActorRef } from './authSession.machine';

/** SPEC §9: the logged-out delete page redirects after 2 seconds. */
export const LOGIN_REDIRECT_DELAY_MS = 2000;
/** SPEC §6: what /login says to a visitor sent there from this page. */
export const LOGIN_TO_DELETE_NOTICE = 'Please log in to proceed with account deletion';

/**
 * What deleting the account does to the member's subscription (issue 30): none to end; one that ends
 * with the account (its plan's name, and the end of the money-back guarantee while it runs); or not
 * known, when the lookup failed.
 */
export type SubscriptionAtDeletion =
  | { kind: 'none' }
  | { kind: 'ends'; plan: string | null; refundableUntil: string | null }
  | { kind: 'unknown' };

/** A plan held (not a purchase still waiting for its payment) ends with the account; nothing else does. */
function atDeletion(subscription: CurrentSubscriptionAnswer | null): SubscriptionAtDeletion {
  if (!subscription || !holdsPlan(subscription)) return { kind: 'none' };
  return { kind: 'ends', plan: subscription.plan?.productName ?? null, refundableUntil: subscription.refundableUntil };
}

export type DeleteAccountEvent = { type: 'deletion.requested' } | { type: 'deletion.confirmed' } | { type: 'deletion.cancelled' };

export const deleteAccountMachine = setup({
  types: {
    context: {} as { auth: AuthActorRef; loggedIn: boolean; error: string | null; subscription: SubscriptionAtDeletion },
    events: {} as DeleteAccountEvent,
    input: {} as { auth: AuthActorRef; loggedIn: boolean },
  },
  actors: {
    currentSubscription: fromPromise<CurrentSubscriptionAnswer | null>(({ signal }) => getCurrentSubscription({ signal })),
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
  context: ({ input }) => ({ auth: input.auth, loggedIn: input.loggedIn, error: null, subscription: { kind: 'none' } }),
  initial: 'start',
  states: {
    start: {
      always: [{ guard: 'loggedIn', target: 'checkingSubscription' }, { target: 'loggedOut' }],
    },
    // The page says what happens to a subscription before the member can ask to delete.
    checkingSubscription: {
      tags: ['checking'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'currentSubscription',
        src: 'currentSubscription',
        onDone: { target: 'idle', actions: assign({ subscription: ({ event }) => atDeletion(event.output) }) },
        onError: { target: 'idle', actions: assign({ subscription: { kind: 'unknown' } }) },
      },
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
