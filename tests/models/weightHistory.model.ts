import { setup } from 'xstate';

/**
 * Issue 12, weight history in the Goals tab: 'Loading weight history…', then a chart and a table of
 * the member's entries newest first (issue 21; 'No entries yet…' without any), or the server's
 * message with Retry. A dated entry is checked first (30-300 kg, no future date, with the rule's
 * message), then saved ('Saving...') and shown with 'Weight entry saved' for 3 seconds (SPEC §9, issue
 * 21); an entry's Delete removes that row. A refused save or delete shows the server's message and
 * keeps the rows.
 */
export const weightHistoryModel = setup({
  types: {
    events: {} as
      | { type: 'goals.opened' }
      | { type: 'server.answeredEntries' }
      | { type: 'server.answeredNone' }
      | { type: 'server.failed' }
      | { type: 'retry.clicked' }
      | { type: 'entry.addedValid' }
      | { type: 'entry.addedLight' }
      | { type: 'entry.addedFuture' }
      | { type: 'entry.deleteClicked' }
      | { type: 'server.saved' }
      | { type: 'server.deleted' }
      | { type: 'server.refused' }
      | { type: 'time.passed3s' },
  },
}).createMachine({
  id: 'weightHistoryModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'goals.opened': 'loading' } },
    loading: { on: { 'server.answeredEntries': 'listed', 'server.answeredNone': 'empty', 'server.failed': 'failed' } },
    /** The server's message with Retry, no table. */
    failed: { on: { 'retry.clicked': 'loading' } },
    /** 'No entries yet…' and the entry form. */
    empty: { on: { 'entry.addedLight': 'invalid', 'entry.addedValid': 'adding' } },
    /** The rows, newest first. */
    listed: { on: { 'entry.addedValid': 'adding', 'entry.addedFuture': 'invalid', 'entry.deleteClicked': 'deleting' } },
    /** The rule's message; nothing sent. */
    invalid: { on: { 'entry.addedValid': 'adding' } },
    adding: { on: { 'server.saved': 'added', 'server.refused': 'refused' } },
    /** 'Weight entry saved' and the new row; the notice goes after 3 seconds. */
    added: { on: { 'entry.deleteClicked': 'deleting', 'time.passed3s': 'listed' } },
    deleting: { on: { 'server.deleted': 'listed', 'server.refused': 'refused' } },
    /** The server's message, the rows kept. */
    refused: { on: { 'entry.addedValid': 'adding', 'entry.deleteClicked': 'deleting' } },
  },
});
