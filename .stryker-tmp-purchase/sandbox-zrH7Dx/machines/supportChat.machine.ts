// @ts-nocheck
import { fromPromise, setup } from 'xstate';

export type SupportChatEvent = { type: 'chat.requested' };

/**
 * The Support tab's live chat: the provider's widget loads only when asked for,
 * then is maximised. Without a configured widget, or when it cannot load, the tab
 * says so and offers e-mail instead.
 */
export const supportChatMachine = setup({
  types: {
    events: {} as SupportChatEvent,
    tags: {} as 'busy',
  },
  actors: {
    loadWidget: fromPromise<void>(async () => {
      // Stryker disable next-line StringLiteral: the tab shows its own text when the widget cannot load, never this one.
      throw new Error('No chat widget loader was provided');
    }),
  },
  // Stryker disable next-line ObjectLiteral: a placeholder the app provides; XState skips a missing action the same way.
  actions: {
    maximizeWidget: () => {},
  },
  guards: {
    /** Whether a chat provider and widget id are configured; the app provides it. */
    // Stryker disable next-line ArrowFunction: undefined is as falsy as false to a guard.
    configured: () => false,
  },
}).createMachine({
  id: 'supportChat',
  initial: 'idle',
  states: {
    idle: {
      on: {
        'chat.requested': [{ guard: 'configured', target: 'loading' }, { target: 'notConfigured' }],
      },
    },
    loading: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'loadWidget',
        src: 'loadWidget',
        onDone: { target: 'open', actions: 'maximizeWidget' },
        onError: 'unavailable',
      },
    },
    open: {
      on: { 'chat.requested': { actions: 'maximizeWidget' } },
    },
    unavailable: {
      on: { 'chat.requested': 'loading' },
    },
    notConfigured: {},
  },
});
