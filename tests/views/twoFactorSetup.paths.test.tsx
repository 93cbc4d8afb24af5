import { afterEach, describe, expect, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { fromPromise } from 'xstate';
import { twoFactorSetupMachine } from '../../machines/twoFactorSetup.machine';
import { ApiError } from '../../machines/services/errors';
import type { TwoFactorDisablePayload, TwoFactorSetupResponse, TwoFactorStatus } from '../../server/src/contract/twoFactor';
import { twoFactorSetupModel } from '../models/twoFactorSetup.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { seeMessages } from '../support/pathSteps';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';

const SETUP: TwoFactorSetupResponse = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  uri: 'otpauth://totp/Carnivo:ribeye%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Carnivo',
  qrCode: 'data:image/svg+xml;base64,PHN2Zy8+',
};
const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);
const NEW_CODES = Array.from({ length: 10 }, (_, i) => `mnpq${i}-rstu${i}`);
const WRONG_CODE = 'That code is not right. Try again.';
const WRONG_PASSWORD = 'The password is not right.';

function openSecurity(inspect: Inspect) {
  const statuses = deferredCalls<void, TwoFactorStatus>();
  const setups = deferredCalls<void, TwoFactorSetupResponse>();
  const enables = deferredCalls<{ code: string }, string[]>();
  const regenerations = deferredCalls<{ code: string }, string[]>();
  const disables = deferredCalls<TwoFactorDisablePayload, void>();
  const copies = deferredCalls<{ text: string }, void>();
  const saveCodes = vi.fn();
  const printCodes = vi.fn();
  const twoFactorSetup = twoFactorSetupMachine.provide({
    actions: { saveCodes: (_, file) => saveCodes(file), printCodes: (_, text) => printCodes(text) },
    actors: {
      copyText: fromPromise<void, { text: string }>(({ input }) => copies.handler(input)),
      loadStatus: fromPromise<TwoFactorStatus>(() => statuses.handler()),
      startSetup: fromPromise<TwoFactorSetupResponse>(() => setups.handler()),
      enable: fromPromise<string[], { code: string }>(({ input }) => enables.handler(input)),
      regenerate: fromPromise<string[], { code: string }>(({ input }) => regenerations.handler(input)),
      disable: fromPromise<void, TwoFactorDisablePayload>(({ input }) => disables.handler(input)),
    },
  });
  return {
    ...renderProfile('security', { twoFactorSetup }, {}, inspect),
    statuses,
    setups,
    enables,
    regenerations,
    disables,
    copies,
    saveCodes,
    printCodes,
    codes: CODES,
  };
}
type Page = ReturnType<typeof openSecurity>;

const panel = () => screen.getByRole('region', { name: 'Two-factor authentication' });
const form = (name: string) => within(panel()).getByRole('form', { name });

async function type(scope: HTMLElement, label: string, value: string, page: Page) {
  await page.user.type(within(scope).getByLabelText(label, { selector: 'input' }), value);
}

const button = (name: string) => within(panel()).getByRole('button', { name }) as HTMLButtonElement;

async function seePanel(messages: { alert?: string; notice?: string }, check: () => void) {
  // The Security tab is its own chunk: the first render waits for its import.
  await see("the region 'Two-factor authentication'", panel, 20_000);
  await seeMessages(panel, messages);
  await see('the panel', check);
}

const seeOff = (messages: { alert?: string; notice?: string } = {}, busy = false) =>
  seePanel(messages, () => {
    const setUp = button(busy ? 'Setting up...' : 'Set up two-factor authentication');
    expect(setUp.disabled).toBe(busy);
    expect(within(panel()).queryByRole('img')).toBeNull();
  });

const seeScanning = (messages: { alert?: string; notice?: string } = {}, busy = false) =>
  seePanel(messages, () => {
    expect(within(panel()).getByRole('img', { name: 'QR code for your authenticator app' }).getAttribute('src')).toBe(SETUP.qrCode);
    // On a phone: the app opens from the link, or the key is copied or typed (in groups of four).
    expect(within(panel()).getByRole('link', { name: 'Open in authenticator app' }).getAttribute('href')).toBe(SETUP.uri);
    expect(within(panel()).getByLabelText('Secret key').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    expect(button('Copy key').disabled).toBe(busy);
    const code = within(panel()).getByLabelText('6-digit code', { selector: 'input' });
    expect([code.getAttribute('inputmode'), code.getAttribute('autocomplete')]).toEqual(['numeric', 'one-time-code']);
    expect(button(busy ? 'Turning on...' : 'Turn on').disabled).toBe(busy);
  });

const seeOn = (left: number, messages: { alert?: string } = {}, busy?: 'regenerating' | 'disabling') =>
  seePanel(messages, () => {
    expect(within(panel()).getByText(`Two-factor authentication is on. ${left} recovery codes left.`)).toBeTruthy();
    expect(button(busy === 'regenerating' ? 'Generating...' : 'Get new recovery codes').disabled).toBe(busy !== undefined);
    expect(button(busy === 'disabling' ? 'Turning off...' : 'Turn off two-factor authentication').disabled).toBe(busy !== undefined);
    // Each form under its own heading, each code field with a name of its own (a phone's number pad first).
    const regenerate = within(panel()).getByRole('group', { name: 'Get new recovery codes' });
    const turnOff = within(panel()).getByRole('group', { name: 'Turn off' });
    for (const [group, label] of [
      [regenerate, 'Code for new recovery codes'],
      [turnOff, 'Code to turn off'],
    ] as const) {
      const code = within(group).getByRole('textbox', { name: label });
      expect([code.getAttribute('inputmode'), code.getAttribute('autocomplete')]).toEqual(['numeric', 'one-time-code']);
    }
    expect(within(turnOff).getByLabelText('Password', { selector: 'input' })).toBeTruthy();
  });

const seeCodes = (codes: string[], messages: { alert?: string; notice?: string } = {}) =>
  seePanel(messages, () => {
    const items = within(within(panel()).getByRole('list', { name: 'Recovery codes' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(codes);
    expect(within(panel()).queryByRole('img')).toBeNull();
    for (const name of ['Copy', 'Download', 'Print', 'I have saved them']) expect(button(name).disabled).toBe(false);
  });

/** The text of Copy, Download and Print: the codes, a line each, under a title. */
const codesText = (codes: string[]) =>
  ['Carnivo recovery codes', 'Each code signs you in once if you lose your phone. Keep them somewhere safe.', '', ...codes, ''].join('\n');
const COPY_FAILED = 'Could not copy. Select the text and copy it instead.';

describe('twoFactorSetup: the model replayed against the Security tab', () => {
  afterEach(restoreProfileHarness);

  definePathTests<Page>({
    flow: 'twoFactorSetup',
    machine: twoFactorSetupMachine,
    model: twoFactorSetupModel,
    open: { 'security.opened': openSecurity },
    perform: {
      'server.statusOff': (page) => page.statuses.last().settle.resolve({ enabled: false, recoveryCodesLeft: 0 }),
      'server.statusOn': (page) => page.statuses.last().settle.resolve({ enabled: true, recoveryCodesLeft: 4 }),
      'server.statusFailed': (page) => page.statuses.last().settle.reject(new ApiError('', 500)),
      'status.retried': (page) => page.user.click(button('Try again')),
      'setup.requested': (page) => page.user.click(button('Set up two-factor authentication')),
      'server.setupStarted': (page) => page.setups.last().settle.resolve(SETUP),
      'server.setupFailed': (page) => page.setups.last().settle.reject(new ApiError('', 500)),
      'setup.cancelled': (page) => page.user.click(button('Cancel')),
      'code.submitted': async (page) => {
        const turnOn = form('Turn on two-factor authentication');
        await page.user.clear(within(turnOn).getByLabelText('6-digit code', { selector: 'input' }));
        await type(turnOn, '6-digit code', ' 123 456 ', page);
        await page.user.click(button('Turn on'));
      },
      'server.enabled': (page) => {
        page.codes = CODES;
        page.enables.last().settle.resolve(CODES);
      },
      'server.refusedCode': (page) => page.enables.last().settle.reject(new ApiError(WRONG_CODE, 400)),
      'key.copyRequested': async (page) => {
        // A code typed before copying is still there after.
        await type(form('Turn on two-factor authentication'), '6-digit code', '99', page);
        await page.user.click(button('Copy key'));
      },
      'clipboard.copied': (page) => page.copies.last().settle.resolve(),
      'clipboard.refused': (page) => page.copies.last().settle.reject(new Error('NotAllowedError')),
      'codes.copyRequested': (page) => page.user.click(button('Copy')),
      'codes.downloadRequested': (page) => page.user.click(button('Download')),
      'codes.printRequested': (page) => page.user.click(button('Print')),
      'codes.saved': (page) => page.user.click(button('I have saved them')),
      'regenerate.submitted': async (page) => {
        await type(form('New recovery codes'), 'Code for new recovery codes', CODES[0], page);
        await page.user.click(button('Get new recovery codes'));
      },
      'server.regenerated': (page) => {
        page.codes = NEW_CODES;
        page.regenerations.last().settle.resolve(NEW_CODES);
      },
      'server.refusedRegenerate': (page) => page.regenerations.last().settle.reject(new ApiError(WRONG_CODE, 400)),
      'disable.submitted': async (page) => {
        const turnOff = form('Turn off two-factor authentication');
        await type(turnOff, 'Password', 'secret123', page);
        await type(turnOff, 'Code to turn off', '654321', page);
        await page.user.click(button('Turn off two-factor authentication'));
      },
      'server.disabled': (page) => page.disables.last().settle.resolve(),
      'server.refusedDisable': (page) => page.disables.last().settle.reject(new ApiError(WRONG_PASSWORD, 400)),
    },
    screens: {
      loading: () => seePanel({}, () => expect(within(panel()).getByText('Loading...')).toBeTruthy()),
      statusFailed: () =>
        seePanel({ alert: 'Failed to load two-factor authentication' }, () => expect(button('Try again').disabled).toBe(false)),
      off: () => seeOff(),
      startingSetup: () => seeOff({}, true),
      setupFailed: () => seeOff({ alert: 'Two-factor authentication could not be changed. Please try again.' }),
      scanning: () => seeScanning(),
      turningOn: async (page) => {
        await seeScanning({}, true);
        expect(page.enables.last().input).toEqual({ code: '123 456' });
      },
      codeRefused: () => seeScanning({ alert: WRONG_CODE }),
      copyingKey: async (page) => {
        await seeScanning();
        expect(page.copies.last().input).toEqual({ text: SETUP.secret });
      },
      keyCopied: async () => {
        await seeScanning({ notice: 'Key copied.' });
        expect((within(panel()).getByLabelText('6-digit code', { selector: 'input' }) as HTMLInputElement).value).toBe('99');
      },
      keyCopyRefused: () => seeScanning({ alert: COPY_FAILED }),
      recoveryCodes: (page) => seeCodes(page.codes),
      copyingCodes: async (page) => {
        await seeCodes(page.codes);
        expect(page.copies.last().input).toEqual({ text: codesText(page.codes) });
      },
      codesCopied: (page) => seeCodes(page.codes, { notice: 'Recovery codes copied.' }),
      codesCopyRefused: (page) => seeCodes(page.codes, { alert: COPY_FAILED }),
      codesDownloaded: async (page) => {
        await seeCodes(page.codes);
        expect(page.saveCodes).toHaveBeenLastCalledWith({ filename: 'carnivo-recovery-codes.txt', text: codesText(page.codes) });
      },
      codesPrinted: async (page) => {
        await seeCodes(page.codes);
        expect(page.printCodes).toHaveBeenLastCalledWith(codesText(page.codes));
      },
      on: (_page, { from }) => seeOn(from === 'recoveryCodes' || from === 'codesPrinted' ? 10 : 4),
      regenerating: async (page) => {
        await seeOn(4, {}, 'regenerating');
        expect(page.regenerations.last().input).toEqual({ code: CODES[0] });
      },
      regenerateRefused: () => seeOn(4, { alert: WRONG_CODE }),
      turningOff: async (page, { from }) => {
        await seeOn(from === 'on' ? 4 : 10, {}, 'disabling');
        expect(page.disables.last().input).toEqual({ password: 'secret123', code: '654321' });
      },
      disableRefused: () => seeOn(4, { alert: WRONG_PASSWORD }),
      offAgain: () => seeOff({ notice: 'Two-factor authentication is off.' }),
    },
  });
});
