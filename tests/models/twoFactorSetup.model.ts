import { setup } from 'xstate';

/**
 * Issue 23 item 2: two-factor authentication in the profile's Security tab. Off: "Set up" shows a QR
 * code and the secret as text; the first code from the app turns it on and the ten recovery codes are
 * shown once. On: new recovery codes for a code, or off with the password and a code. A refusal
 * keeps everything as it was, with the server's message.
 * Issue 28: on a phone, the key is copied (or opened in the app through its otpauth link), and the
 * recovery codes are copied, downloaded as a text file or printed.
 */
export const twoFactorSetupModel = setup({
  types: {
    events: {} as
      | { type: 'security.opened' }
      | { type: 'server.statusOff' }
      | { type: 'server.statusOn' }
      | { type: 'server.statusFailed' }
      | { type: 'status.retried' }
      | { type: 'setup.requested' }
      | { type: 'server.setupStarted' }
      | { type: 'server.setupFailed' }
      | { type: 'setup.cancelled' }
      | { type: 'code.submitted' }
      | { type: 'key.copyRequested' }
      | { type: 'clipboard.copied' }
      | { type: 'clipboard.refused' }
      | { type: 'codes.copyRequested' }
      | { type: 'codes.downloadRequested' }
      | { type: 'codes.printRequested' }
      | { type: 'server.enabled' }
      | { type: 'server.refusedCode' }
      | { type: 'codes.saved' }
      | { type: 'regenerate.submitted' }
      | { type: 'server.regenerated' }
      | { type: 'server.refusedRegenerate' }
      | { type: 'disable.submitted' }
      | { type: 'server.disabled' }
      | { type: 'server.refusedDisable' },
  },
}).createMachine({
  id: 'twoFactorSetupModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'security.opened': 'loading' } },
    loading: { on: { 'server.statusOff': 'off', 'server.statusOn': 'on', 'server.statusFailed': 'statusFailed' } },
    /** 'Failed to load two-factor authentication' and Try again. */
    statusFailed: { on: { 'status.retried': 'loading' } },
    off: { on: { 'setup.requested': 'startingSetup' } },
    /** 'Setting up...' */
    startingSetup: { on: { 'server.setupStarted': 'scanning', 'server.setupFailed': 'setupFailed' } },
    /** The fallback message, still off. */
    setupFailed: { on: { 'setup.requested': 'startingSetup' } },
    /** The QR code, the secret as text, the code field. */
    scanning: { on: { 'code.submitted': 'turningOn', 'setup.cancelled': 'off', 'key.copyRequested': 'copyingKey' } },
    copyingKey: { on: { 'clipboard.copied': 'keyCopied', 'clipboard.refused': 'keyCopyRefused' } },
    /** 'Key copied.', the code field as it was. */
    keyCopied: { on: { 'code.submitted': 'turningOn' } },
    /** 'Could not copy. Select the text and copy it instead.' */
    keyCopyRefused: {},
    /** 'Turning on...' */
    turningOn: { on: { 'server.enabled': 'recoveryCodes', 'server.refusedCode': 'codeRefused' } },
    /** 'That code is not right. Try again.' with the QR code still there. */
    codeRefused: { on: { 'code.submitted': 'turningOn' } },
    /** The ten codes, shown once. */
    recoveryCodes: { on: { 'codes.saved': 'on', 'codes.copyRequested': 'copyingCodes' } },
    copyingCodes: { on: { 'clipboard.copied': 'codesCopied', 'clipboard.refused': 'codesCopyRefused' } },
    /** 'Recovery codes copied.' */
    codesCopied: { on: { 'codes.downloadRequested': 'codesDownloaded' } },
    codesCopyRefused: {},
    /** carnivo-recovery-codes.txt handed to the browser; the codes still shown. */
    codesDownloaded: { on: { 'codes.printRequested': 'codesPrinted' } },
    /** The codes alone sent to the printer. */
    codesPrinted: { on: { 'codes.saved': 'on' } },
    on: { on: { 'regenerate.submitted': 'regenerating', 'disable.submitted': 'turningOff' } },
    regenerating: { on: { 'server.regenerated': 'recoveryCodes', 'server.refusedRegenerate': 'regenerateRefused' } },
    regenerateRefused: {},
    turningOff: { on: { 'server.disabled': 'offAgain', 'server.refusedDisable': 'disableRefused' } },
    /** 'The password is not right.', still on. */
    disableRefused: {},
    /** 'Two-factor authentication is off.' */
    offAgain: {},
  },
});
