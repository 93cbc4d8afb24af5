import { assertEvent, assign, fromPromise, raise, sendParent, setup } from 'xstate';
import { billingMessages } from '../server/src/contract/billing';
import type { PaymentMode } from '../server/src/contract/subscriptions';
import type { SandboxCard } from '../server/src/contract/sandboxCard';
import { openBillingPortal, updateSandboxCard } from './services/billing';
import { errorMessage } from './services/errors';
import { SUCCESS_NOTICE_MS, successNotice } from './shared/notice';

export type ManageBillingEvent =
  /** "Manage billing", with the payment mode the tab loaded. */
  { type: 'billing.requested'; mode: PaymentMode } | { type: 'card.submitted'; card: SandboxCard } | { type: 'card.dismissed' };

/**
 * "Manage billing": with Stripe, asks for a Customer Portal session and leaves for it; in sandbox
 * mode, a dialog replaces the card on file.
 */
export const manageBillingMachine = setup({
  types: {
    context: {} as { error: string | null },
    events: {} as ManageBillingEvent,
  },
  actors: {
    openPortal: fromPromise<string>(({ signal }) => openBillingPortal({ signal })),
    updateCard: fromPromise<string, SandboxCard>(({ input, signal }) => updateSandboxCard(input, { signal })),
  },
  // Stryker disable next-line ObjectLiteral: a placeholder the view provides; XState skips a missing action the same way.
  actions: {
    /** Leaves the app for another page (the view gives the browser's full-page redirect). */
    redirectTo: (_, _url: string) => {},
    /** Tells the Subscriptions tab, its parent, so that the card on file is shown anew. */
    reportCardChanged: sendParent({ type: 'card.changed' }),
  },
  guards: {
    stripe: ({ event }) => {
      assertEvent(event, 'billing.requested');
      return event.mode === 'stripe';
    },
  },
  delays: {
    successMessage: SUCCESS_NOTICE_MS,
  },
}).createMachine({
  id: 'manageBilling',
  context: { error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'billing.requested': [
          { guard: 'stripe', target: 'openingPortal', actions: assign({ error: null }) },
          { target: 'editingCard', actions: assign({ error: null }) },
        ],
      },
    },
    openingPortal: {
      tags: ['busy'],
      invoke: {
        id: 'openPortal',
        src: 'openPortal',
        onDone: { target: 'leaving', actions: { type: 'redirectTo', params: ({ event }) => event.output } },
        onError: { target: 'idle', actions: assign({ error: ({ event }) => errorMessage(event.error, billingMessages.portalFailed) }) },
      },
    },
    /** The browser is on its way to the portal, which returns to a fresh page. */
    leaving: { tags: ['busy'] },
    editingCard: {
      tags: ['dialog'],
      on: {
        'card.submitted': { target: 'updatingCard', actions: assign({ error: null }) },
        'card.dismissed': { target: 'idle', actions: assign({ error: null }) },
      },
    },
    updatingCard: {
      tags: ['dialog', 'busy'],
      invoke: {
        id: 'updateCard',
        src: 'updateCard',
        input: ({ event }) => {
          assertEvent(event, 'card.submitted');
          return event.card;
        },
        // The error was cleared when the card was submitted.
        onDone: { target: 'updated', actions: 'reportCardChanged' },
        // The dialog stays open so another card can be tried.
        onError: {
          target: 'editingCard',
          actions: assign({ error: ({ event }) => errorMessage(event.error, billingMessages.cardUpdateFailed) }),
        },
      },
    },
    updated: {
      ...successNotice('idle'),
      on: {
        // Asking again during the message is handled as from idle.
        'billing.requested': { target: 'idle', actions: raise(({ event }) => event) },
      },
    },
  },
});
