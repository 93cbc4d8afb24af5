import { assign, fromPromise, setup } from 'xstate';
import { billingMessages } from '../server/src/contract/billing';
import { exportAccount, type AccountExportFile } from '../src/api/billing';
import { errorMessage } from '../src/api/errors';

/** SPEC §9: success messages on the profile disappear after 3000 ms. */
export const EXPORT_SAVED_MS = 3000;

export function exportedMessage(filename: string): string {
  return `Your data has been downloaded as ${filename}.`;
}

export type DataExportEvent = { type: 'export.requested' };

/** "Download my data": fetches the member's data file and hands it to the browser to save. */
export const dataExportMachine = setup({
  types: {
    context: {} as { filename: string | null; error: string | null },
    events: {} as DataExportEvent,
  },
  actors: {
    exportAccount: fromPromise<AccountExportFile>(({ signal }) => exportAccount({ signal })),
  },
  // Stryker disable next-line ObjectLiteral: a placeholder the view provides; XState skips a missing action the same way.
  actions: {
    /** Saves the file in the browser (the view makes it a download). */
    saveFile: (_, _file: AccountExportFile) => {},
  },
  delays: {
    successMessage: EXPORT_SAVED_MS,
  },
}).createMachine({
  id: 'dataExport',
  context: { filename: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'export.requested': 'preparing' },
    },
    preparing: {
      tags: ['busy'],
      entry: assign({ error: null }),
      invoke: {
        id: 'exportAccount',
        src: 'exportAccount',
        onDone: {
          target: 'saved',
          actions: [assign({ filename: ({ event }) => event.output.filename }), { type: 'saveFile', params: ({ event }) => event.output }],
        },
        onError: { target: 'failure', actions: assign({ error: ({ event }) => errorMessage(event.error, billingMessages.exportFailed) }) },
      },
    },
    saved: {
      tags: ['success'],
      after: { successMessage: 'idle' },
      on: { 'export.requested': 'preparing' },
    },
    failure: {
      on: { 'export.requested': 'preparing' },
    },
  },
});
