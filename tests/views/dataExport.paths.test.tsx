import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { fromPromise } from 'xstate';
import { dataExportMachine } from '../../machines/dataExport.machine';
import { billingMessages } from '../../server/src/contract/billing';
import type { AccountExportFile } from '../../machines/services/billing';
import { ApiError } from '../../machines/services/errors';
import { dataExportModel } from '../models/dataExport.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { noticeShownFor, seeButton, seeMessages } from '../support/pathSteps';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';
import { SUCCESS_NOTICE_MS } from '../../machines/shared/notice';

const FILE: AccountExportFile = { filename: 'carnivo-data-ribeye.json', text: '{"account":{"username":"ribeye"}}' };
const SAVED = 'Your data has been downloaded as carnivo-data-ribeye.json.';

function openProfile(inspect: Inspect) {
  const requests = deferredCalls<void, AccountExportFile>();
  const saveFile = vi.fn<(file: AccountExportFile) => void>();
  const dataExport = dataExportMachine.provide({
    actors: { exportAccount: fromPromise<AccountExportFile>(() => requests.handler()) },
    actions: { saveFile: (_, file) => saveFile(file) },
  });
  return { ...renderProfile('information', { dataExport }, {}, inspect), requests, saveFile, requestsBefore: 0, savesBefore: 0 };
}
type Page = ReturnType<typeof openProfile>;

const panel = () => screen.getByRole('region', { name: 'Your data' });

async function expectPanel(page: Page, { busy, alert, notice }: { busy: boolean; alert?: string; notice?: string }) {
  await seeButton(panel, { idle: 'Download my data', busy: 'Preparing...' }, busy);
  await seeMessages(panel, { alert, notice });
  // The file is saved only when the server sent it.
  expect(page.saveFile).toHaveBeenCalledTimes(page.savesBefore);
}

describe('dataExport: the issue 11 model replayed against the Information tab', () => {
  afterEach(restoreProfileHarness);

  it('uses the spec delay and the agreed messages', () => {
    expect(SUCCESS_NOTICE_MS).toBe(3000);
    expect(billingMessages.exportLimit).toBe('You can download your data 5 times an hour. Please try again later.');
    expect(billingMessages.exportFailed).toBe('Failed to download your data');
  });

  definePathTests<Page>({
    flow: 'dataExport',
    machine: dataExportMachine,
    model: dataExportModel,
    open: { 'profile.opened': openProfile },
    perform: {
      'download.clicked': (page) => {
        page.requestsBefore = page.requests.calls.length;
        return page.user.click(within(panel()).getByRole('button', { name: 'Download my data' }));
      },
      'server.answeredFile': (page) => {
        page.savesBefore += 1;
        page.requests.last().settle.resolve(FILE);
      },
      'server.refusedLimit': (page) => page.requests.last().settle.reject(new ApiError(billingMessages.exportLimit, 429)),
      'server.failed': (page) => page.requests.last().settle.reject(new ApiError(billingMessages.exportFailed, 500)),
      'time.passed3s': noticeShownFor(SUCCESS_NOTICE_MS, panel, SAVED),
    },
    screens: {
      ready: async (page) => {
        // Beside the password panel, in the Information tab.
        await see("the region 'Password'", () => screen.getByRole('region', { name: 'Password' }));
        await expectPanel(page, { busy: false });
      },
      preparing: async (page) => {
        await expectPanel(page, { busy: true });
        await see('one export call per click', () => expect(page.requests.calls).toHaveLength(page.requestsBefore + 1));
      },
      saved: async (page) => {
        await expectPanel(page, { busy: false, notice: SAVED });
        expect(page.saveFile).toHaveBeenLastCalledWith(FILE);
      },
      limited: (page) => expectPanel(page, { busy: false, alert: billingMessages.exportLimit }),
      failed: (page) => expectPanel(page, { busy: false, alert: billingMessages.exportFailed }),
    },
  });
});
