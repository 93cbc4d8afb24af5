import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import type { AccountExportFile } from '../../../machines/services/billing';
import { dataExportMachine, exportedMessage } from '../../../machines/dataExport.machine';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';
import { SUCCESS_NOTICE_MS } from '../../../machines/shared/notice';

/** API doubles, shaped like the service calls the machine's actors make; each test sets what they answer. */
const exportAccount = vi.fn<(options: { signal: AbortSignal }) => Promise<AccountExportFile>>();

const file: AccountExportFile = { filename: 'carnivo-data-7.json', text: '{"account":{"id":7}}' };
let request: Deferred<AccountExportFile>;

beforeEach(() => {
  request = deferred<AccountExportFile>();
  exportAccount.mockReset().mockReturnValue(request.promise);
});

function start() {
  const saveFile = vi.fn<(file: AccountExportFile) => void>();
  const clock = new SimulatedClock();
  const actor = createActor(
    dataExportMachine.provide({
      actors: { exportAccount: fromPromise<AccountExportFile>(({ signal }) => exportAccount({ signal })) },
      actions: { saveFile: (_, saved) => saveFile(saved) },
    }),
    { clock },
  ).start();
  return { actor, clock, saveFile };
}

describe('dataExport (issue 11: "Download my data")', () => {
  it('asks the server once, busy, saves the file it answers and says so for 3000 ms', async () => {
    const { actor, clock, saveFile } = start();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ filename: null, error: null });
    actor.send({ type: 'export.requested' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(exportAccount).toHaveBeenCalledWith({ signal: expect.any(AbortSignal) });
    expect(Object.keys(actor.getSnapshot().children)).toEqual(['exportAccount']);
    actor.send({ type: 'export.requested' });
    expect(exportAccount).toHaveBeenCalledTimes(1);

    request.resolve(file);
    await nextTick();
    expect(saveFile).toHaveBeenCalledExactlyOnceWith(file);
    expect(actor.getSnapshot().matches('saved')).toBe(true);
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context).toEqual({ filename: 'carnivo-data-7.json', error: null });
    expect(exportedMessage('carnivo-data-7.json')).toBe('Your data has been downloaded as carnivo-data-7.json.');

    expect(SUCCESS_NOTICE_MS).toBe(3000);
    clock.increment(2999);
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
  });

  it('can be asked again while the message shows', async () => {
    const { actor, saveFile } = start();
    actor.send({ type: 'export.requested' });
    request.resolve(file);
    await nextTick();
    exportAccount.mockResolvedValue({ ...file, filename: 'second.json' });
    actor.send({ type: 'export.requested' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await nextTick();
    expect(saveFile).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().context.filename).toBe('second.json');
  });

  it("a refusal (e.g. the hourly limit) shows the server's text, or 'Failed to download your data', and saves nothing; trying again clears it", async () => {
    const { actor, saveFile } = start();
    actor.send({ type: 'export.requested' });
    request.reject(new Error('You can download your data 5 times an hour. Please try again later.'));
    await nextTick();
    expect(actor.getSnapshot().matches('failure')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context.error).toBe('You can download your data 5 times an hour. Please try again later.');
    expect(saveFile).not.toHaveBeenCalled();

    const again = deferred<AccountExportFile>();
    exportAccount.mockReturnValue(again.promise);
    actor.send({ type: 'export.requested' });
    expect(actor.getSnapshot().matches('preparing')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
    again.reject(new Error(''));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to download your data');
  });
});
