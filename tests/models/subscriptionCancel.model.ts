import { setup } from 'xstate';

/**
 * SPEC §4 Cancellation, §6, §8, §9: Unsubscribe opens a confirmation saying access runs to the end
 * of the billing period ('Yes, Cancel' / 'No, Keep Subscription'). On success the dialog closes, a
 * message shows for 5 seconds, the profile and subscription reload and 'Cancelling on {date}'
 * replaces Unsubscribe; a failure shows the server's text. A subscription set to cancel at period
 * end no longer blocks buying a plan.
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
      | { type: 'plan.chosen' },
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
    cancelled: { on: { 'time.passed5s': 'cancelEnded' } },
    cancelEnded: { on: { 'plan.chosen': 'purchaseStarting' } },
    purchaseStarting: {},
  },
});
