import { assign, fromPromise, setup } from 'xstate';
import { billingMessages } from '../server/src/contract/billing';
import { exportAccount, type AccountExportFile } from './services/billing';
import { errorMessage } from './services/errors';
import { SUCCESS_NOTICE_MS, successNotice } from './shared/notice';

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
    successMessage: SUCCESS_NOTICE_MS,
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
      ...successNotice('idle'),
      on: { 'export.requested': 'preparing' },
    },
    failure: {
      on: { 'export.requested': 'preparing' },
    },
  },
});
