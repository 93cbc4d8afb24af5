import { setup } from 'xstate';

/**
 * SPEC §2 Delete Account, §4 Delete flow, §9: 'Delete My Account' opens the confirmation dialog;
 * 'Yes, Delete' deletes (buttons disabled, 'Deleting...'), then /login with the message, or the
 * error on the page. A failure never deletes without asking again. Logged out, the page says so and
 * goes to /login after 2 seconds.
 *
 * Issue 30 item 7: before the member can ask, the page learns what deleting does to their
 * subscription, and the page and its dialog say it: nothing (none, or only a purchase waiting for its
 * payment); a plan that ends now with no further charge; the same within the money-back guarantee,
 * with how to ask for the refund first; or, when the lookup fails, what happens to one if there is one.
 * Each of the four is its own set of states, as its screens differ.
 */
const NOTICES = ['', 'Ends', 'Refundable', 'Unknown'] as const;
type Notice = (typeof NOTICES)[number];

const deletionStates = (notice: Notice) => ({
  [`idle${notice}`]: { on: { 'deletion.requested': `confirming${notice}` } },
  [`confirming${notice}`]: { on: { 'deletion.confirmed': `deleting${notice}`, 'deletion.cancelled': `idle${notice}` } },
  [`deleting${notice}`]: { on: { 'server.deleted': 'loginPageDeleted', 'server.failed': `failure${notice}` } },
  [`failure${notice}`]: { on: { 'deletion.requested': `confirming${notice}` } },
});

export const deleteAccountModel = setup({
  types: {
    events: {} as
      | { type: 'page.openedLoggedIn' }
      | { type: 'page.openedLoggedOut' }
      | { type: 'time.passed2s' }
      | { type: 'server.noSubscription' }
      | { type: 'server.unpaidPurchaseOnly' }
      | { type: 'server.planHeld' }
      | { type: 'server.planRefundable' }
      | { type: 'server.lookupFailed' }
      | { type: 'deletion.requested' }
      | { type: 'deletion.confirmed' }
      | { type: 'deletion.cancelled' }
      | { type: 'server.deleted' }
      | { type: 'server.failed' },
  },
}).createMachine({
  id: 'deleteAccountModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'page.openedLoggedIn': 'checking', 'page.openedLoggedOut': 'loggedOutNotice' } },
    loggedOutNotice: { on: { 'time.passed2s': 'loginPageAsked' } },
    loginPageAsked: {},
    checking: {
      on: {
        'server.noSubscription': 'idle',
        'server.unpaidPurchaseOnly': 'idle',
        'server.planHeld': 'idleEnds',
        'server.planRefundable': 'idleRefundable',
        'server.lookupFailed': 'idleUnknown',
      },
    },
    ...NOTICES.reduce((states, notice) => ({ ...states, ...deletionStates(notice) }), {}),
    loginPageDeleted: {},
  },
});
