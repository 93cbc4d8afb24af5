import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { TwoFactorSetupResponse, TwoFactorStatus } from '../server/src/contract/twoFactor';
import { recoveryCodesFile, recoveryCodesText, type RecoveryCodesFile } from './rules/twoFactor';
import { errorMessage } from './services/errors';
import {
  TWO_FACTOR_FALLBACK,
  TWO_FACTOR_STATUS_FALLBACK,
  disableTwoFactor,
  enableTwoFactor,
  getTwoFactorStatus,
  regenerateRecoveryCodes,
  startTwoFactorSetup,
} from './services/twoFactor';

export const TWO_FACTOR_OFF_NOTICE = 'Two-factor authentication is off.';
export const KEY_COPIED_NOTICE = 'Key copied.';
export const CODES_COPIED_NOTICE = 'Recovery codes copied.';
export const COPY_FAILED = 'Could not copy. Select the text and copy it instead.';

export type TwoFactorSetupEvent =
  | { type: 'status.retried' }
  | { type: 'setup.requested' }
  | { type: 'setup.cancelled' }
  | { type: 'code.submitted'; code: string }
  /** The set-up key to the clipboard (a phone cannot scan its own screen). */
  | { type: 'key.copyRequested' }
  | { type: 'codes.copyRequested' }
  | { type: 'codes.downloadRequested' }
  | { type: 'codes.printRequested' }
  | { type: 'codes.saved' }
  | { type: 'regenerate.submitted'; code: string }
  | { type: 'disable.submitted'; password: string; code: string };

type TwoFactorSetupContext = {
  /** The pending secret and its QR code while the member confirms it. */
  setup: TwoFactorSetupResponse | null;
  /** New recovery codes, held only until the member says they are saved. */
  recoveryCodes: string[] | null;
  recoveryCodesLeft: number;
  error: string | null;
  notice: string | null;
};

/**
 * Two-factor authentication in the Security tab: set up (QR code, the otpauth link and the secret, which
 * can be copied), confirmed with a first code, the recovery codes shown once (to copy, download or
 * print); then new recovery codes, or off with the password and a code. Every refusal leaves the state
 * as it was, with the server's message. The clipboard, the download and the printer are the view's.
 */
export const twoFactorSetupMachine = setup({
  types: {
    context: {} as TwoFactorSetupContext,
    events: {} as TwoFactorSetupEvent,
  },
  actors: {
    loadStatus: fromPromise<TwoFactorStatus>(({ signal }) => getTwoFactorStatus({ signal })),
    startSetup: fromPromise<TwoFactorSetupResponse>(({ signal }) => startTwoFactorSetup({ signal })),
    enable: fromPromise<string[], { code: string }>(({ input, signal }) => enableTwoFactor(input.code, { signal })),
    regenerate: fromPromise<string[], { code: string }>(({ input, signal }) => regenerateRecoveryCodes(input.code, { signal })),
    disable: fromPromise<void, { password: string; code: string }>(({ input, signal }) => disableTwoFactor(input, { signal })),
    // Stryker disable next-line ArrowFunction: a placeholder the view provides (the browser's clipboard).
    copyText: fromPromise<void, { text: string }>(async () => {}),
  },
  actions: {
    // Stryker disable next-line ArrowFunction: placeholders the view provides (a file download, the printer).
    saveCodes: (_, _file: RecoveryCodesFile) => {},
    // Stryker disable next-line ArrowFunction: as above.
    printCodes: (_, _text: string) => {},
    clearMessages: assign({ error: null, notice: null }),
    showRecoveryCodes: assign((_, recoveryCodes: string[]) => ({ recoveryCodes, recoveryCodesLeft: recoveryCodes.length, setup: null })),
    showError: assign((_, { error }: { error: unknown }) => ({ error: errorMessage(error, TWO_FACTOR_FALLBACK) })),
  },
}).createMachine({
  id: 'twoFactorSetup',
  context: { setup: null, recoveryCodes: null, recoveryCodesLeft: 0, error: null, notice: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'loadStatus',
        src: 'loadStatus',
        onDone: [
          {
            guard: ({ event }) => event.output.enabled,
            target: 'enabled',
            actions: assign({ recoveryCodesLeft: ({ event }) => event.output.recoveryCodesLeft }),
          },
          { target: 'disabled' },
        ],
        onError: { target: 'loadFailed', actions: assign({ error: ({ event }) => errorMessage(event.error, TWO_FACTOR_STATUS_FALLBACK) }) },
      },
    },
    loadFailed: {
      on: { 'status.retried': { target: 'loading', actions: 'clearMessages' } },
    },
    disabled: {
      on: { 'setup.requested': { target: 'startingSetup', actions: 'clearMessages' } },
    },
    startingSetup: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'startSetup',
        src: 'startSetup',
        onDone: { target: 'confirming', actions: assign({ setup: ({ event }) => event.output }) },
        onError: { target: 'disabled', actions: { type: 'showError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    /** The QR code and the secret are shown; the first code turns it on. */
    confirming: {
      on: {
        'code.submitted': { target: 'enabling', actions: 'clearMessages' },
        'key.copyRequested': { target: 'copyingKey', actions: 'clearMessages' },
        'setup.cancelled': { target: 'disabled', actions: [assign({ setup: null }), 'clearMessages'] },
      },
    },
    copyingKey: {
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'copyKey',
        src: 'copyText',
        // Set on the way into confirming.
        input: ({ context }) => ({ text: context.setup!.secret }),
        onDone: { target: 'confirming', actions: assign({ notice: KEY_COPIED_NOTICE }) },
        onError: { target: 'confirming', actions: assign({ error: COPY_FAILED }) },
      },
    },
    enabling: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'enable',
        src: 'enable',
        input: ({ event }) => {
          assertEvent(event, 'code.submitted');
          return { code: event.code.trim() };
        },
        onDone: { target: 'showingRecoveryCodes', actions: { type: 'showRecoveryCodes', params: ({ event }) => event.output } },
        onError: { target: 'confirming', actions: { type: 'showError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    /** Shown once: the server keeps only their hashes. */
    showingRecoveryCodes: {
      on: {
        'codes.copyRequested': { target: 'copyingCodes', actions: 'clearMessages' },
        'codes.downloadRequested': {
          actions: ['clearMessages', { type: 'saveCodes', params: ({ context }) => recoveryCodesFile(context.recoveryCodes!) }],
        },
        'codes.printRequested': {
          actions: ['clearMessages', { type: 'printCodes', params: ({ context }) => recoveryCodesText(context.recoveryCodes!) }],
        },
        'codes.saved': { target: 'enabled', actions: [assign({ recoveryCodes: null }), 'clearMessages'] },
      },
    },
    copyingCodes: {
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'copyCodes',
        src: 'copyText',
        // Set on the way into showingRecoveryCodes.
        input: ({ context }) => ({ text: recoveryCodesText(context.recoveryCodes!) }),
        onDone: { target: 'showingRecoveryCodes', actions: assign({ notice: CODES_COPIED_NOTICE }) },
        onError: { target: 'showingRecoveryCodes', actions: assign({ error: COPY_FAILED }) },
      },
    },
    enabled: {
      on: {
        'regenerate.submitted': { target: 'regenerating', actions: 'clearMessages' },
        'disable.submitted': { target: 'disabling', actions: 'clearMessages' },
      },
    },
    regenerating: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'regenerate',
        src: 'regenerate',
        input: ({ event }) => {
          assertEvent(event, 'regenerate.submitted');
          return { code: event.code.trim() };
        },
        onDone: { target: 'showingRecoveryCodes', actions: { type: 'showRecoveryCodes', params: ({ event }) => event.output } },
        onError: { target: 'enabled', actions: { type: 'showError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    disabling: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'disable',
        src: 'disable',
        input: ({ event }) => {
          assertEvent(event, 'disable.submitted');
          return { password: event.password, code: event.code.trim() };
        },
        onDone: { target: 'disabled', actions: assign({ notice: TWO_FACTOR_OFF_NOTICE, recoveryCodesLeft: 0 }) },
        onError: { target: 'enabled', actions: { type: 'showError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});
