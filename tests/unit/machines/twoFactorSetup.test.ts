import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { TWO_FACTOR_OFF_NOTICE, twoFactorSetupMachine } from '../../../machines/twoFactorSetup.machine';
import { RECOVERY_CODES_FILENAME, recoveryCodesText, spacedKey } from '../../../machines/rules/twoFactor';
import type { TwoFactorSetupResponse, TwoFactorStatus } from '../../../server/src/contract/twoFactor';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';

/** API doubles, shaped like the service calls the machine's actors make; each test sets what they answer. */
const getTwoFactorStatus = vi.fn<(options: { signal: AbortSignal }) => Promise<TwoFactorStatus>>();
const startTwoFactorSetup = vi.fn<(options: { signal: AbortSignal }) => Promise<TwoFactorSetupResponse>>();
const enableTwoFactor = vi.fn<(code: string, options: { signal: AbortSignal }) => Promise<string[]>>();
const regenerateRecoveryCodes = vi.fn<(code: string, options: { signal: AbortSignal }) => Promise<string[]>>();
const disableTwoFactor = vi.fn<(payload: { password: string; code: string }, options: { signal: AbortSignal }) => Promise<void>>();
const withApi = twoFactorSetupMachine.provide({
  actors: {
    loadStatus: fromPromise<TwoFactorStatus>(({ signal }) => getTwoFactorStatus({ signal })),
    startSetup: fromPromise<TwoFactorSetupResponse>(({ signal }) => startTwoFactorSetup({ signal })),
    enable: fromPromise<string[], { code: string }>(({ input, signal }) => enableTwoFactor(input.code, { signal })),
    regenerate: fromPromise<string[], { code: string }>(({ input, signal }) => regenerateRecoveryCodes(input.code, { signal })),
    disable: fromPromise<void, { password: string; code: string }>(({ input, signal }) => disableTwoFactor(input, { signal })),
  },
});

const SETUP: TwoFactorSetupResponse = {
  secret: 'JBSWY3DPEHPK3PXP',
  uri: 'otpauth://totp/Carnivo:a?secret=JBSWY3DPEHPK3PXP',
  qrCode: 'data:image/svg+xml;base64,PHN2Zy8+',
};
const CODES = ['aaaaa-bbbbb', 'ccccc-ddddd'];

let status: Deferred<TwoFactorStatus>;
let setupCall: Deferred<TwoFactorSetupResponse>;
let enableCall: Deferred<string[]>;
let regenerateCall: Deferred<string[]>;
let disableCall: Deferred<void>;

beforeEach(() => {
  status = deferred();
  setupCall = deferred();
  enableCall = deferred();
  regenerateCall = deferred();
  disableCall = deferred();
  getTwoFactorStatus.mockReset().mockReturnValue(status.promise);
  startTwoFactorSetup.mockReset().mockReturnValue(setupCall.promise);
  enableTwoFactor.mockReset().mockReturnValue(enableCall.promise);
  regenerateRecoveryCodes.mockReset().mockReturnValue(regenerateCall.promise);
  disableTwoFactor.mockReset().mockReturnValue(disableCall.promise);
});

async function started(answer: TwoFactorStatus | Error, machine = withApi) {
  const actor = createActor(machine).start();
  expect(actor.getSnapshot().matches('loading')).toBe(true);
  expect(actor.getSnapshot().context).toEqual({ setup: null, recoveryCodes: null, recoveryCodesLeft: 0, error: null, notice: null });
  expect(actor.getSnapshot().hasTag('busy')).toBe(true);
  expect(getTwoFactorStatus).toHaveBeenCalledWith({ signal: expect.any(AbortSignal) });
  if (answer instanceof Error) status.reject(answer);
  else status.resolve(answer);
  await nextTick();
  return actor;
}

describe('twoFactorSetup (two-factor authentication in the Security tab)', () => {
  it('starts with the status: off, or on with the recovery codes left', async () => {
    const off = await started({ enabled: false, recoveryCodesLeft: 0 });
    expect(off.getSnapshot().value).toBe('disabled');
    expect(off.getSnapshot().hasTag('busy')).toBe(false);
    status = deferred();
    getTwoFactorStatus.mockReturnValue(status.promise);
    const on = await started({ enabled: true, recoveryCodesLeft: 7 });
    expect(on.getSnapshot().value).toBe('enabled');
    expect(on.getSnapshot().context.recoveryCodesLeft).toBe(7);
  });

  it('a status that cannot be read says why and can be tried again', async () => {
    const actor = await started(new Error(''));
    expect(actor.getSnapshot().value).toBe('loadFailed');
    expect(actor.getSnapshot().context.error).toBe('Failed to load two-factor authentication');
    status = deferred();
    getTwoFactorStatus.mockReturnValue(status.promise);
    actor.send({ type: 'status.retried' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.error).toBeNull();
    status.reject(new Error('Not authenticated'));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Not authenticated');
  });

  it('set-up shows the QR code and secret, the first code turns it on and the recovery codes are shown once', async () => {
    const actor = await started({ enabled: false, recoveryCodesLeft: 0 });
    actor.send({ type: 'setup.requested' });
    expect(actor.getSnapshot().value).toBe('startingSetup');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(startTwoFactorSetup).toHaveBeenCalledWith({ signal: expect.any(AbortSignal) });
    setupCall.resolve(SETUP);
    await nextTick();
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context.setup).toEqual(SETUP);

    actor.send({ type: 'code.submitted', code: ' 123456 ' });
    expect(actor.getSnapshot().value).toBe('enabling');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(enableTwoFactor).toHaveBeenCalledWith('123456', { signal: expect.any(AbortSignal) });
    enableCall.resolve(CODES);
    await nextTick();
    expect(actor.getSnapshot().value).toBe('showingRecoveryCodes');
    expect(actor.getSnapshot().context).toMatchObject({ recoveryCodes: CODES, recoveryCodesLeft: 2, setup: null });

    actor.send({ type: 'codes.saved' });
    expect(actor.getSnapshot().value).toBe('enabled');
    expect(actor.getSnapshot().context.recoveryCodes).toBeNull();
    expect(actor.getSnapshot().context.recoveryCodesLeft).toBe(2);
  });

  it('a refused set-up or code keeps the state with the message; a retry clears it; cancel drops the secret', async () => {
    const actor = await started({ enabled: false, recoveryCodesLeft: 0 });
    actor.send({ type: 'setup.requested' });
    setupCall.reject(new Error('Two-factor authentication needs an account with a password.'));
    await nextTick();
    expect(actor.getSnapshot().value).toBe('disabled');
    expect(actor.getSnapshot().context.error).toBe('Two-factor authentication needs an account with a password.');
    setupCall = deferred();
    startTwoFactorSetup.mockReturnValue(setupCall.promise);
    actor.send({ type: 'setup.requested' });
    setupCall.reject(new Error(''));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Two-factor authentication could not be changed. Please try again.');

    setupCall = deferred();
    startTwoFactorSetup.mockReturnValue(setupCall.promise);
    actor.send({ type: 'setup.requested' });
    expect(actor.getSnapshot().context.error).toBeNull();
    setupCall.resolve(SETUP);
    await nextTick();

    actor.send({ type: 'code.submitted', code: '000000' });
    enableCall.reject(new Error('That code is not right. Try again.'));
    await nextTick();
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(actor.getSnapshot().context.error).toBe('That code is not right. Try again.');
    expect(actor.getSnapshot().context.setup).toEqual(SETUP);

    // Another code clears the message while it is checked.
    enableCall = deferred();
    enableTwoFactor.mockReturnValue(enableCall.promise);
    actor.send({ type: 'code.submitted', code: '111111' });
    expect(actor.getSnapshot().value).toBe('enabling');
    expect(actor.getSnapshot().context.error).toBeNull();
    enableCall.reject(new Error(''));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Two-factor authentication could not be changed. Please try again.');

    actor.send({ type: 'setup.cancelled' });
    expect(actor.getSnapshot().value).toBe('disabled');
    expect(actor.getSnapshot().context.setup).toBeNull();
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('new recovery codes for a code; a refusal keeps it on with the message', async () => {
    const actor = await started({ enabled: true, recoveryCodesLeft: 3 });
    actor.send({ type: 'regenerate.submitted', code: ' aaaaa-bbbbb ' });
    expect(actor.getSnapshot().value).toBe('regenerating');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(regenerateRecoveryCodes).toHaveBeenCalledWith('aaaaa-bbbbb', { signal: expect.any(AbortSignal) });
    regenerateCall.reject(new Error('That code is not right. Try again.'));
    await nextTick();
    expect(actor.getSnapshot().value).toBe('enabled');
    expect(actor.getSnapshot().context.error).toBe('That code is not right. Try again.');

    regenerateCall = deferred();
    regenerateRecoveryCodes.mockReturnValue(regenerateCall.promise);
    actor.send({ type: 'regenerate.submitted', code: '123456' });
    expect(actor.getSnapshot().context.error).toBeNull();
    regenerateCall.resolve(['x'.repeat(11)]);
    await nextTick();
    expect(actor.getSnapshot().value).toBe('showingRecoveryCodes');
    expect(actor.getSnapshot().context.recoveryCodesLeft).toBe(1);
  });

  it('turning it off sends the password and the code; a refusal keeps it on, success says it is off', async () => {
    const actor = await started({ enabled: true, recoveryCodesLeft: 10 });
    actor.send({ type: 'disable.submitted', password: ' pass word ', code: ' 123456 ' });
    expect(actor.getSnapshot().value).toBe('disabling');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(disableTwoFactor).toHaveBeenCalledWith({ password: ' pass word ', code: '123456' }, { signal: expect.any(AbortSignal) });
    disableCall.reject(new Error('The password is not right.'));
    await nextTick();
    expect(actor.getSnapshot().value).toBe('enabled');
    expect(actor.getSnapshot().context.error).toBe('The password is not right.');
    expect(actor.getSnapshot().context.recoveryCodesLeft).toBe(10);

    disableCall = deferred();
    disableTwoFactor.mockReturnValue(disableCall.promise);
    actor.send({ type: 'disable.submitted', password: 'pw', code: '654321' });
    expect(actor.getSnapshot().context.error).toBeNull();
    disableCall.resolve();
    await nextTick();
    expect(actor.getSnapshot().value).toBe('disabled');
    expect(actor.getSnapshot().context).toMatchObject({ notice: TWO_FACTOR_OFF_NOTICE, recoveryCodesLeft: 0, error: null });
    expect(TWO_FACTOR_OFF_NOTICE).toBe('Two-factor authentication is off.');

    // A new set-up clears the notice.
    actor.send({ type: 'setup.requested' });
    expect(actor.getSnapshot().context.notice).toBeNull();
  });

  it('busy states ignore repeats', async () => {
    const actor = await started({ enabled: true, recoveryCodesLeft: 10 });
    actor.send({ type: 'disable.submitted', password: 'pw', code: '1' });
    actor.send({ type: 'regenerate.submitted', code: '2' });
    actor.send({ type: 'disable.submitted', password: 'pw', code: '3' });
    expect(disableTwoFactor).toHaveBeenCalledTimes(1);
    expect(regenerateRecoveryCodes).not.toHaveBeenCalled();
  });

  it('on a phone: the key and the codes go to the clipboard, the codes to a file or the printer, through the view', async () => {
    let copied = deferred<void>();
    const copyText = vi.fn((_input: { text: string }) => copied.promise);
    const saveCodes = vi.fn();
    const printCodes = vi.fn();
    const machine = withApi.provide({
      actors: { copyText: fromPromise<void, { text: string }>(({ input }) => copyText(input)) },
      actions: { saveCodes: (_, file) => saveCodes(file), printCodes: (_, text) => printCodes(text) },
    });
    const actor = await started({ enabled: false, recoveryCodesLeft: 0 }, machine);
    actor.send({ type: 'setup.requested' });
    setupCall.resolve(SETUP);
    await nextTick();
    actor.send({ type: 'code.submitted', code: '000000' });
    enableCall.reject(new Error('That code is not right. Try again.'));
    await nextTick();

    // The key, without the spaces it is shown with; the message of the code before is cleared.
    actor.send({ type: 'key.copyRequested' });
    expect(actor.getSnapshot().value).toBe('copyingKey');
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(copyText).toHaveBeenLastCalledWith({ text: SETUP.secret });
    copied.resolve();
    await nextTick();
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(actor.getSnapshot().context).toMatchObject({ notice: 'Key copied.', error: null, setup: SETUP });

    copied = deferred();
    actor.send({ type: 'key.copyRequested' });
    expect(actor.getSnapshot().context.notice).toBeNull();
    copied.reject(new Error('NotAllowedError'));
    await nextTick();
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(actor.getSnapshot().context).toMatchObject({ error: 'Could not copy. Select the text and copy it instead.', notice: null });

    enableCall = deferred();
    enableTwoFactor.mockReturnValue(enableCall.promise);
    actor.send({ type: 'code.submitted', code: '123456' });
    enableCall.resolve(CODES);
    await nextTick();
    expect(actor.getSnapshot().value).toBe('showingRecoveryCodes');

    copied = deferred();
    actor.send({ type: 'codes.copyRequested' });
    expect(actor.getSnapshot().value).toBe('copyingCodes');
    expect(copyText).toHaveBeenLastCalledWith({ text: recoveryCodesText(CODES) });
    copied.resolve();
    await nextTick();
    expect(actor.getSnapshot().value).toBe('showingRecoveryCodes');
    expect(actor.getSnapshot().context).toMatchObject({ notice: 'Recovery codes copied.', recoveryCodes: CODES });

    actor.send({ type: 'codes.downloadRequested' });
    expect(actor.getSnapshot().context.notice).toBeNull();
    expect(saveCodes).toHaveBeenCalledWith({ filename: RECOVERY_CODES_FILENAME, text: recoveryCodesText(CODES) });
    expect(RECOVERY_CODES_FILENAME).toBe('carnivo-recovery-codes.txt');

    copied = deferred();
    actor.send({ type: 'codes.copyRequested' });
    copied.reject(new Error(''));
    await nextTick();
    expect(actor.getSnapshot().value).toBe('showingRecoveryCodes');
    expect(actor.getSnapshot().context.error).toBe('Could not copy. Select the text and copy it instead.');
    actor.send({ type: 'codes.printRequested' });
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(printCodes).toHaveBeenCalledWith(recoveryCodesText(CODES));

    // Copying again clears the message of the last try; leaving clears the notice.
    copied = deferred();
    actor.send({ type: 'codes.copyRequested' });
    copied.reject(new Error(''));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Could not copy. Select the text and copy it instead.');
    copied = deferred();
    actor.send({ type: 'codes.copyRequested' });
    expect(actor.getSnapshot().value).toBe('copyingCodes');
    expect(actor.getSnapshot().context.error).toBeNull();
    copied.resolve();
    await nextTick();
    expect(actor.getSnapshot().context.notice).toBe('Recovery codes copied.');
    actor.send({ type: 'codes.saved' });
    expect(actor.getSnapshot().value).toBe('enabled');
    expect(actor.getSnapshot().context).toMatchObject({ recoveryCodes: null, notice: null, error: null });
    expect(saveCodes).toHaveBeenCalledTimes(1);
    expect(printCodes).toHaveBeenCalledTimes(1);
  });

  it('the key is shown in groups of four; the codes file has a title and a code a line', () => {
    expect(spacedKey('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PX')).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PX');
    expect(spacedKey('')).toBe('');
    expect(recoveryCodesText(['a', 'b'])).toBe(
      'Carnivo recovery codes\nEach code signs you in once if you lose your phone. Keep them somewhere safe.\n\na\nb\n',
    );
  });
});
