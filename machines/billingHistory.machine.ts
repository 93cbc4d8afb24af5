import { assign, fromPromise, setup } from 'xstate';
import { billingMessages, type Invoice } from '../server/src/contract/billing';
import { getInvoices, type InvoicePage } from './services/billing';
import { errorMessage } from './services/errors';

export type BillingHistoryEvent =
  | { type: 'history.moreRequested' }
  | { type: 'history.retried' }
  /** From the Subscriptions tab: a purchase, cancel or resume made or changed invoices. */
  | { type: 'subscription.changed' };

type BillingHistoryContext = {
  invoices: Invoice[];
  /** The last page loaded (0 before the first). */
  page: number;
  hasMore: boolean;
  error: string | null;
};

const fresh: BillingHistoryContext = { invoices: [], page: 0, hasMore: false, error: null };

/**
 * The member's invoices on the Subscriptions tab, newest first, a page at a time: "Show more" loads the
 * next page, a failed page keeps what was shown and Retry asks for that page again.
 */
export const billingHistoryMachine = setup({
  types: {
    context: {} as BillingHistoryContext,
    events: {} as BillingHistoryEvent,
  },
  actors: {
    loadInvoices: fromPromise<InvoicePage, { page: number }>(({ input, signal }) => getInvoices(input.page, { signal })),
  },
  guards: {
    hasMore: ({ context }) => context.hasMore,
  },
}).createMachine({
  id: 'billingHistory',
  context: fresh,
  initial: 'loading',
  on: {
    // Start over from the first page, dropping an answer still on its way.
    'subscription.changed': { target: '.loading', actions: assign(fresh) },
  },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadInvoices',
        src: 'loadInvoices',
        input: ({ context }) => ({ page: context.page + 1 }),
        onDone: {
          target: 'loaded',
          actions: assign(({ context, event }) => ({
            invoices: [...context.invoices, ...event.output.invoices],
            page: context.page + 1,
            hasMore: event.output.hasMore,
            error: null,
          })),
        },
        onError: {
          target: 'failure',
          actions: assign({ error: ({ event }) => errorMessage(event.error, billingMessages.invoicesFailed) }),
        },
      },
    },
    loaded: {
      on: { 'history.moreRequested': { guard: 'hasMore', target: 'loading' } },
    },
    failure: {
      on: { 'history.retried': 'loading' },
    },
  },
});
