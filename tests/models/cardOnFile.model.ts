import { setup } from 'xstate';

/**
 * Issue 21, the card on file: Billing shows which card the member's payments are taken from, as the
 * payment gateway keeps it ("Card on file: Visa ending in 4242, expires December 2034"), nothing before
 * one is saved. After "Your card has been updated." it shows the new card (the old one until the new
 * answer is in); a declined card leaves the old one. A failed load says 'Failed to load your card on
 * file' (or the server's text) with Retry.
 */
export const cardOnFileModel = setup({
  types: {
    events: {} as
      | { type: 'profile.opened' }
      | { type: 'server.answeredCard' }
      | { type: 'server.answeredNoCard' }
      | { type: 'server.failed' }
      | { type: 'retry.clicked' }
      | { type: 'newCard.submitted' }
      | { type: 'server.cardUpdated' }
      | { type: 'server.cardDeclined' }
      | { type: 'server.answeredNewCard' },
  },
}).createMachine({
  id: 'cardOnFileModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'profile.opened': 'loading' } },
    /** No card line yet, no alert. */
    loading: { on: { 'server.answeredCard': 'showing', 'server.answeredNoCard': 'noCard', 'server.failed': 'failed' } },
    /** Nothing saved: no card line. */
    noCard: {},
    /** The Visa; "Manage billing", a new card (Mastercard) in the dialog. */
    showing: { on: { 'newCard.submitted': 'updating' } },
    /** The dialog busy; the Visa still shown. */
    updating: { on: { 'server.cardUpdated': 'reloading', 'server.cardDeclined': 'declined' } },
    /** The decline in the dialog; the Visa still shown, not asked for again. */
    declined: {},
    /** 'Your card has been updated.'; the Visa until the new answer. */
    reloading: { on: { 'server.answeredNewCard': 'showingNew' } },
    /** The Mastercard, with the notice. */
    showingNew: {},
    /** The alert with Retry, no card line. */
    failed: { on: { 'retry.clicked': 'loading' } },
  },
});
