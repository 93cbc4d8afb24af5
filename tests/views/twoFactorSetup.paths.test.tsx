import { afterEach, describe, expect } from 'vitest';
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
  const twoFactorSetup = twoFactorSetupMachine.provide({
    actors: {
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

const seeScanning = (messages: { alert?: string } = {}, busy = false) =>
  seePanel(messages, () => {
    expect(within(panel()).getByRole('img', { name: 'QR code for your authenticator app' }).getAttribute('src')).toBe(SETUP.qrCode);
    expect(within(panel()).getByLabelText('Secret key').textContent).toBe(SETUP.secret);
    expect(button(busy ? 'Turning on...' : 'Turn on').disabled).toBe(busy);
  });

const seeOn = (left: number, messages: { alert?: string } = {}, busy?: 'regenerating' | 'disabling') =>
  seePanel(messages, () => {
    expect(within(panel()).getByText(`Two-factor authentication is on. ${left} recovery codes left.`)).toBeTruthy();
    expect(button(busy === 'regenerating' ? 'Generating...' : 'Get new recovery codes').disabled).toBe(busy !== undefined);
    expect(button(busy === 'disabling' ? 'Turning off...' : 'Turn off two-factor authentication').disabled).toBe(busy !== undefined);
  });

const seeCodes = (codes: string[]) =>
  seePanel({}, () => {
    const items = within(within(panel()).getByRole('list', { name: 'Recovery codes' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(codes);
    expect(within(panel()).queryByRole('img')).toBeNull();
  });

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
      'codes.saved': (page) => page.user.click(button('I have saved them')),
      'regenerate.submitted': async (page) => {
        await type(form('New recovery codes'), 'Code from your app or a recovery code', CODES[0], page);
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
        await type(turnOff, 'Code from your app or a recovery code', '654321', page);
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
      recoveryCodes: (page) => seeCodes(page.codes),
      on: (_page, { from }) => seeOn(from === 'recoveryCodes' ? 10 : 4),
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
