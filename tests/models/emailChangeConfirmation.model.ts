import { setup } from 'xstate';

/**
 * Issue 23 (verified e-mail change): the link mailed to the new address opens /email-change/confirm,
 * the one mailed to the old address /email-change/cancel. Opening the page changes nothing: the
 * member presses the button ('Confirming...' / 'Cancelling...'), then the page says what happened
 * ('Your email address is now <new>. Please log in with it.' with a Log In link, or 'The email
 * change was cancelled. ...'), or shows the server's refusal (or the fallback) and the button works
 * again. A link without a usable token says so at once and offers no button.
 */
export const emailChangeConfirmationModel = setup({
  types: {
    events: {} as
      | { type: 'confirmLink.opened' }
      | { type: 'cancelLink.opened' }
      | { type: 'brokenLink.opened' }
      | { type: 'link.submitted' }
      | { type: 'server.accepted' }
      | { type: 'server.refused' }
      | { type: 'server.failedWithoutMessage' },
  },
}).createMachine({
  id: 'emailChangeConfirmationModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'confirmLink.opened': 'ready', 'cancelLink.opened': 'cancelReady', 'brokenLink.opened': 'broken' } },
    ready: { on: { 'link.submitted': 'submitting' } },
    submitting: { on: { 'server.accepted': 'confirmed', 'server.refused': 'refused', 'server.failedWithoutMessage': 'failed' } },
    /** The server's own message. */
    refused: { on: { 'link.submitted': 'submitting' } },
    /** 'Failed to confirm your new email address' */
    failed: { on: { 'link.submitted': 'submitting' } },
    confirmed: {},
    /** The cancel page, alike with its own words. */
    cancelReady: { on: { 'link.submitted': 'cancelSubmitting' } },
    cancelSubmitting: {
      on: { 'server.accepted': 'cancelled', 'server.refused': 'cancelRefused', 'server.failedWithoutMessage': 'cancelFailed' },
    },
    cancelRefused: { on: { 'link.submitted': 'cancelSubmitting' } },
    /** 'Failed to cancel the email change' */
    cancelFailed: { on: { 'link.submitted': 'cancelSubmitting' } },
    cancelled: {},
    /** 'This link is incomplete. Please open the link from the email again.' */
    broken: {},
  },
});
