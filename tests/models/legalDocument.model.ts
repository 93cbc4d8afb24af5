import { setup } from 'xstate';

/**
 * SPEC §2 Legal pages, §4 Legal page, §8: the page loads its text from the server ('Loading...'),
 * then shows it (the server's title and markdown, the fixed 'Last Updated' line) or the page's error
 * with a Retry button, which loads again. A page the server prerendered arrives with its text.
 */
export const legalDocumentModel = setup({
  types: {
    events: {} as
      | { type: 'page.opened' }
      | { type: 'page.openedPrerendered' }
      | { type: 'server.served' }
      | { type: 'server.failed' }
      | { type: 'retry.clicked' },
  },
}).createMachine({
  id: 'legalDocumentModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'page.opened': 'loading', 'page.openedPrerendered': 'prerendered' } },
    loading: { on: { 'server.served': 'loaded', 'server.failed': 'failed' } },
    failed: { on: { 'retry.clicked': 'reloading' } },
    /** Asking the server a second time. */
    reloading: { on: { 'server.served': 'loaded' } },
    loaded: {},
    /** The text that came with the page; the server is not asked. */
    prerendered: {},
  },
});
