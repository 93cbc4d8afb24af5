import { assign, fromPromise, setup } from 'xstate';
import { billingMessages, type CardOnFile } from '../server/src/contract/billing';
import { getCardOnFile } from './services/billing';
import { errorMessage } from './services/errors';

export type CardOnFileEvent =
  /** From the Subscriptions tab: a card update or a purchase may have saved another card. */
  { type: 'card.changed' } | { type: 'card.retried' };

type CardOnFileContext = {
  /** The card last loaded (null: none saved, or not loaded yet); kept while it is loaded again. */
  card: CardOnFile | null;
  error: string | null;
};

/**
 * Issue 21, the card on file in Billing: loaded when the tab opens and again whenever a card update
 * or a purchase may have changed it (an answer still on its way is dropped). A failed load says so
 * with Retry; the card shown before stays.
 */
export const cardOnFileMachine = setup({
  types: {
    context: {} as CardOnFileContext,
    events: {} as CardOnFileEvent,
  },
  actors: {
    loadCard: fromPromise<CardOnFile | null>(({ signal }) => getCardOnFile({ signal })),
  },
}).createMachine({
  id: 'cardOnFile',
  context: { card: null, error: null },
  initial: 'loading',
  on: {
    // From loading too: its answer still on the way is dropped and the card asked for again.
    'card.changed': '.loading',
  },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadCard',
        src: 'loadCard',
        onDone: { target: 'loaded', actions: assign({ card: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'failure',
          actions: assign({ error: ({ event }) => errorMessage(event.error, billingMessages.cardOnFileFailed) }),
        },
      },
    },
    loaded: {},
    failure: {
      on: { 'card.retried': 'loading' },
    },
  },
});
