import { setup } from 'xstate';

/**
 * SPEC §4 Subscription purchase, §6, §8, §9: choosing a plan asks the server to create a
 * subscription ('Starting...'); the payment modal opens; Pay Now confirms the card with the provider;
 * a succeeded payment is verified, the modal closes, 'Subscription successful!' shows for 3 seconds
 * and the profile and current subscription reload (the card then shows the new plan). With no first
 * payment due the server sends no clientSecret: straight to verifying. Payment or verify errors close
 * the modal and show the message; Cancel or close closes it. An inactive plan, or a subscription not
 * set to cancel at period end, cannot be bought.
 * Issue 21: the plans show the state they are in: a retired plan says 'No longer available' with no
 * Subscribe; the member's plan is marked 'Current plan'; while it renews, the other plans' Subscribe is
 * disabled beside the server's reason. One outcome on screen: cancelling during 'Subscription
 * successful!' replaces it with the cancel message.
 */
export const subscriptionPurchaseModel = setup({
  types: {
    events: {} as
      | { type: 'profile.opened' }
      | { type: 'profile.openedSubscribed' }
      | { type: 'plan.chosen' }
      | { type: 'server.created' }
      | { type: 'server.createdNothingDue' }
      | { type: 'server.createRefused' }
      | { type: 'payment.submitted' }
      | { type: 'payment.cancelled' }
      | { type: 'payment.closed' }
      | { type: 'provider.succeeded' }
      | { type: 'provider.notSucceeded' }
      | { type: 'provider.declined' }
      | { type: 'provider.errored' }
      | { type: 'server.verified' }
      | { type: 'server.verifyFailed' }
      | { type: 'time.passed3s' }
      | { type: 'unsubscribe.confirmed' }
      | { type: 'server.cancelled' },
  },
}).createMachine({
  id: 'subscriptionPurchaseModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'profile.opened': 'choosing', 'profile.openedSubscribed': 'subscribed' } },
    /** Plans offered, no subscription yet. */
    choosing: { on: { 'plan.chosen': 'creating' } },
    creating: { on: { 'server.created': 'paying', 'server.createdNothingDue': 'verifying', 'server.createRefused': 'failed' } },
    paying: { on: { 'payment.submitted': 'confirming', 'payment.cancelled': 'choosing', 'payment.closed': 'choosing' } },
    confirming: {
      on: {
        'provider.succeeded': 'verifying',
        'provider.notSucceeded': 'failed',
        'provider.declined': 'failed',
        'provider.errored': 'failed',
      },
    },
    verifying: { on: { 'server.verified': 'succeeded', 'server.verifyFailed': 'failed' } },
    /** The message, and the overview reloaded with the new subscription. */
    succeeded: { on: { 'time.passed3s': 'subscribed', 'unsubscribe.confirmed': 'cancelling' } },
    /** The member's plan marked, the others' Subscribe disabled with the reason. */
    subscribed: { on: { 'unsubscribe.confirmed': 'cancelling' } },
    /** Unsubscribe confirmed: the success message (if still shown) gives way. */
    cancelling: { on: { 'server.cancelled': 'cancelled' } },
    /** The cancel message, and no other: the plans are offered again (cancel at period end blocks nothing). */
    cancelled: {},
    /** The modal closed with the server's or the provider's message; choosing again starts afresh. */
    failed: { on: { 'plan.chosen': 'creating' } },
  },
});
