import { setup } from 'xstate';

/**
 * Issue 11, "Manage billing" on the Subscriptions tab of a member with a subscription. With Stripe it
 * asks the server for a Customer Portal session ('Opening...') and leaves for it; a refusal shows the
 * server's text or 'Failed to open billing management'. In sandbox mode it opens a card-update dialog
 * (the sandbox card form, 'Update card', 'Updating...'): a declined card keeps the dialog open with the
 * message; on success the dialog closes and 'Your card has been updated.' shows for 3 seconds (§9).
 */
export const manageBillingModel = setup({
  types: {
    events: {} as
      | { type: 'profile.openedSandbox' }
      | { type: 'profile.openedStripe' }
      | { type: 'profile.openedWithoutSubscription' }
      | { type: 'manage.clicked' }
      | { type: 'server.portalOpened' }
      | { type: 'server.portalRefused' }
      | { type: 'card.submitted' }
      | { type: 'dialog.cancelled' }
      | { type: 'server.cardUpdated' }
      | { type: 'server.cardDeclined' }
      | { type: 'time.passed3s' },
  },
}).createMachine({
  id: 'manageBillingModel',
  initial: 'notOpened',
  states: {
    notOpened: {
      on: {
        'profile.openedSandbox': 'ready',
        'profile.openedStripe': 'readyStripe',
        'profile.openedWithoutSubscription': 'nothingToManage',
      },
    },
    /** No subscription, so no card or portal: no "Manage billing". */
    nothingToManage: {},
    readyStripe: { on: { 'manage.clicked': 'openingPortal' } },
    openingPortal: { on: { 'server.portalOpened': 'leftForPortal', 'server.portalRefused': 'portalRefused' } },
    /** The browser goes to the portal's address; the button stays busy. */
    leftForPortal: {},
    portalRefused: { on: { 'manage.clicked': 'openingPortal' } },
    ready: { on: { 'manage.clicked': 'cardDialog' } },
    cardDialog: { on: { 'card.submitted': 'updatingCard', 'dialog.cancelled': 'ready' } },
    updatingCard: { on: { 'server.cardUpdated': 'cardUpdated', 'server.cardDeclined': 'cardDeclined' } },
    cardDeclined: { on: { 'card.submitted': 'updatingCard', 'dialog.cancelled': 'ready' } },
    cardUpdated: { on: { 'time.passed3s': 'ready', 'manage.clicked': 'cardDialog' } },
  },
});
