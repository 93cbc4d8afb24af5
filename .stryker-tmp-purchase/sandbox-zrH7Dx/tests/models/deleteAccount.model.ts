// @ts-nocheck
import { setup } from 'xstate';

/**
 * SPEC §2 Delete Account, §4 Delete flow, §9: 'Delete My Account' opens the confirmation dialog;
 * 'Yes, Delete' deletes (buttons disabled, 'Deleting...'), then /login with the message, or the
 * error on the page. A failure never deletes without asking again. Logged out, the page says so and
 * goes to /login after 2 seconds.
 */
export const deleteAccountModel = setup({
  types: {
    events: {} as
      | { type: 'page.openedLoggedIn' }
      | { type: 'page.openedLoggedOut' }
      | { type: 'time.passed2s' }
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
    notOpened: { on: { 'page.openedLoggedIn': 'idle', 'page.openedLoggedOut': 'loggedOutNotice' } },
    loggedOutNotice: { on: { 'time.passed2s': 'loginPageAsked' } },
    loginPageAsked: {},
    idle: { on: { 'deletion.requested': 'confirming' } },
    confirming: { on: { 'deletion.confirmed': 'deleting', 'deletion.cancelled': 'idle' } },
    deleting: { on: { 'server.deleted': 'loginPageDeleted', 'server.failed': 'failure' } },
    loginPageDeleted: {},
    failure: { on: { 'deletion.requested': 'confirming' } },
  },
});
