import { setup } from 'xstate';

/**
 * Issue 11, "Download my data" in the profile's Information tab (beside the password panel): the
 * button says 'Preparing...' while the server builds the file, then the browser saves the JSON file
 * the server sent and a message names it for 3 seconds (§9). Past 5 exports an hour the server
 * refuses with 'You can download your data 5 times an hour. Please try again later.'; another failure
 * says the server's text or 'Failed to download your data'.
 */
export const dataExportModel = setup({
  types: {
    events: {} as
      | { type: 'profile.opened' }
      | { type: 'download.clicked' }
      | { type: 'server.answeredFile' }
      | { type: 'server.refusedLimit' }
      | { type: 'server.failed' }
      | { type: 'time.passed3s' },
  },
}).createMachine({
  id: 'dataExportModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'profile.opened': 'ready' } },
    ready: { on: { 'download.clicked': 'preparing' } },
    preparing: { on: { 'server.answeredFile': 'saved', 'server.refusedLimit': 'limited', 'server.failed': 'failed' } },
    saved: { on: { 'time.passed3s': 'ready', 'download.clicked': 'preparing' } },
    limited: { on: { 'download.clicked': 'preparing' } },
    failed: { on: { 'download.clicked': 'preparing' } },
  },
});
