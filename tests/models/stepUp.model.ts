import { setup } from 'xstate';

/**
 * Issue 28, step-up (docs/security.md#step-up): a guarded call the server refuses for want of a recent
 * proof opens "Confirm it's you" over the page the member is on. The password (or a passkey) proves
 * presence and the call carries on; a refusal says why in the dialog; Cancel closes it and the call
 * fails with the server's words.
 */
export const stepUpModel = setup({
  types: {
    events: {} as
      | { type: 'page.opened' }
      | { type: 'guardedCall.refused' }
      | { type: 'password.submitted' }
      | { type: 'passkey.chosen' }
      | { type: 'dialog.cancelled' }
      | { type: 'server.confirmed' }
      | { type: 'server.refused' },
  },
}).createMachine({
  id: 'stepUpModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'page.opened': 'browsing' } },
    browsing: { on: { 'guardedCall.refused': 'asking' } },
    asking: { on: { 'password.submitted': 'verifying', 'passkey.chosen': 'verifying', 'dialog.cancelled': 'cancelled' } },
    verifying: { on: { 'server.confirmed': 'carriedOn', 'server.refused': 'refused' } },
    /** The server's message in the dialog; the member may try again or cancel. */
    refused: { on: { 'password.submitted': 'verifying', 'passkey.chosen': 'verifying', 'dialog.cancelled': 'cancelled' } },
    /** The dialog is gone and the waiting call is sent again. */
    carriedOn: {},
    /** The dialog is gone and the waiting call fails. */
    cancelled: {},
  },
});
