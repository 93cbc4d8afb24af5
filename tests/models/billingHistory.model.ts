import { setup } from 'xstate';

/**
 * Issue 11, billing history: the Subscriptions tab lists the member's invoices newest first (date,
 * amount, status, period, Receipt and PDF links opening in a new tab), a page at a time with "Show
 * more" while more follow. A failed load says 'Failed to load billing history' (or the server's text)
 * with Retry, keeping the invoices already shown. A purchase, cancel or resume reloads the list.
 */
export const billingHistoryModel = setup({
  types: {
    events: {} as
      | { type: 'profile.opened' }
      | { type: 'server.answeredNone' }
      | { type: 'server.answeredOnePage' }
      | { type: 'server.answeredFirstOfTwo' }
      | { type: 'server.answeredSecondPage' }
      | { type: 'server.failed' }
      | { type: 'more.clicked' }
      | { type: 'retry.clicked' }
      | { type: 'subscription.cancelled' },
  },
}).createMachine({
  id: 'billingHistoryModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'profile.opened': 'loading' } },
    /** 'Loading billing history…', no list yet. */
    loading: {
      on: {
        'server.answeredNone': 'empty',
        'server.answeredOnePage': 'loaded',
        'server.answeredFirstOfTwo': 'firstPage',
        'server.failed': 'failed',
      },
    },
    /** 'No invoices yet.' */
    empty: {},
    /** Every invoice, no "Show more". */
    loaded: { on: { 'subscription.cancelled': 'loading' } },
    /** The first page with "Show more". */
    firstPage: { on: { 'more.clicked': 'loadingMore' } },
    /** The first page, "Loading..." on the disabled button. */
    loadingMore: { on: { 'server.answeredSecondPage': 'allPages', 'server.failed': 'moreFailed' } },
    /** Both pages in order, no "Show more". */
    allPages: {},
    /** The message with Retry, no list. */
    failed: { on: { 'retry.clicked': 'loading' } },
    /** The first page kept, the message with Retry instead of "Show more". */
    moreFailed: { on: { 'retry.clicked': 'loadingMore' } },
  },
});
