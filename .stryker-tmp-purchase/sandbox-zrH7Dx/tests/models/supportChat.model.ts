// @ts-nocheck
import { setup } from 'xstate';

/**
 * SPEC §2 Profile, Support tab: 'Chat with Support' loads the third-party live-chat widget and
 * maximises it; asked again, it maximises it again. Without a configured widget the tab says so and
 * offers e-mail; when the widget cannot load, it says so and the button tries again.
 */
export const supportChatModel = setup({
  types: {
    events: {} as
      | { type: 'tab.openedWithChat' }
      | { type: 'tab.openedWithoutChat' }
      | { type: 'chat.requested' }
      | { type: 'widget.loaded' }
      | { type: 'widget.failed' },
  },
}).createMachine({
  id: 'supportChatModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'tab.openedWithChat': 'ready', 'tab.openedWithoutChat': 'readyWithoutChat' } },
    ready: { on: { 'chat.requested': 'loading' } },
    loading: { on: { 'widget.loaded': 'open', 'widget.failed': 'unavailable' } },
    /** Each request maximises the widget again. */
    open: { on: { 'chat.requested': 'openAgain' } },
    openAgain: {},
    unavailable: { on: { 'chat.requested': 'loading' } },
    readyWithoutChat: { on: { 'chat.requested': 'notConfigured' } },
    notConfigured: {},
  },
});
