import { setup } from 'xstate';

/**
 * SPEC §4 Cancellation, §6, §8, §9: Unsubscribe opens a confirmation saying access runs to the end
 * of the billing period ('Yes, Cancel' / 'No, Keep Subscription'). On success the dialog closes, a
 * message shows for 5 seconds, the profile and subscription reload and 'Cancelling on {date}'
 * replaces Unsubscribe; a failure shows the server's text. A subscription set to cancel at period
 * end no longer blocks buying a plan. Issue 21: one outcome on screen, so a purchase started during the
 * cancel message replaces it.
 * Issue 11: 'Resume subscription' beside 'Cancelling on {date}' undoes it (busy 'Resuming...'); on
 * success 'Your subscription will continue.' shows for 3 seconds (§9) and the subscription, the
 * profile and the billing history reload; a refusal shows the server's text.
 */
export const subscriptionCancelModel = setup({
  types: {
    events: {} as
      | { type: 'profile.opened' }
      | { type: 'cancel.requested' }
      | { type: 'cancel.confirmed' }
      | { type: 'cancel.dismissed' }
      | { type: 'server.cancelled' }
      | { type: 'server.refused' }
      | { type: 'time.passed5s' }
      | { type: 'plan.chosen' }
      | { type: 'resume.requested' }
      | { type: 'server.resumed' }
      | { type: 'server.resumeRefused' }
      | { type: 'time.passed3s' },
  },
}).createMachine({
  id: 'subscriptionCancelModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'profile.opened': 'subscribed' } },
    subscribed: { on: { 'cancel.requested': 'confirming' } },
    confirming: { on: { 'cancel.confirmed': 'cancelling', 'cancel.dismissed': 'subscribed' } },
    cancelling: { on: { 'server.cancelled': 'cancelled', 'server.refused': 'refused' } },
    refused: { on: { 'cancel.requested': 'confirming' } },
    /** The message, and the reloaded card says 'Cancelling on {date}'. */
    cancelled: { on: { 'time.passed5s': 'cancelEnded', 'resume.requested': 'resuming', 'plan.chosen': 'purchaseStarting' } },
    cancelEnded: { on: { 'plan.chosen': 'purchaseStarting', 'resume.requested': 'resuming' } },
    purchaseStarting: {},
    /** 'Resuming...' on the card, which still says 'Cancelling on {date}'. */
    resuming: { on: { 'server.resumed': 'resumed', 'server.resumeRefused': 'resumeRefused' } },
    /** The message, and the reloaded card renews again with Unsubscribe. */
    resumed: { on: { 'time.passed3s': 'subscribed', 'cancel.requested': 'confirming' } },
    resumeRefused: { on: { 'resume.requested': 'resuming' } },
  },
});
