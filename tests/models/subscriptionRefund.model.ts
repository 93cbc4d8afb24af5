import { setup } from 'xstate';

/**
 * Issue 30 item 3, the 30-day money-back guarantee (Refund Policy §1): while it runs, the member's
 * card says until when the first payment can come back and offers 'Request a refund'. Its
 * confirmation states the amount and that access ends now ('Yes, Refund' / 'No, Keep Subscription';
 * 'Refunding...' while it works). On success a message names the amount for 3 seconds (§9) and the
 * subscription, the profile and the billing history reload: no subscription is left. A refusal (the
 * tab was out of date) shows the server's words and the tab reloads. One outcome on screen: a
 * purchase started during the message replaces it.
 */
export const subscriptionRefundModel = setup({
  types: {
    events: {} as
      | { type: 'profile.opened' }
      | { type: 'refund.requested' }
      | { type: 'refund.confirmed' }
      | { type: 'refund.dismissed' }
      | { type: 'server.refunded' }
      | { type: 'server.refused' }
      | { type: 'time.passed3s' }
      | { type: 'plan.chosen' },
  },
}).createMachine({
  id: 'subscriptionRefundModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'profile.opened': 'offered' } },
    offered: { on: { 'refund.requested': 'confirming' } },
    confirming: { on: { 'refund.confirmed': 'refunding', 'refund.dismissed': 'offered' } },
    refunding: { on: { 'server.refunded': 'refunded', 'server.refused': 'refused' } },
    /** The message; the reloaded tab shows no subscription, and the plans can be bought again. */
    refunded: { on: { 'time.passed3s': 'refundEnded', 'plan.chosen': 'purchaseStarting' } },
    refundEnded: {},
    /** The server's refusal; the reloaded tab no longer offers the refund. */
    refused: { on: { 'plan.chosen': 'purchaseStarting' } },
    purchaseStarting: {},
  },
});
