import { setup } from 'xstate';

/**
 * Issue 23 item 1, Security › Passkeys: the member's passkeys are listed (name, created, last used).
 * Add (optionally named) asks this device for a new passkey and the server to verify it; Remove asks
 * for a confirmation first. A device that can't make passkeys says so; a member who closes the
 * browser's dialog gets a calm note, not an error. Every refusal leaves the list as it was.
 */
export const passkeysModel = setup({
  types: {
    events: {} as
      | { type: 'security.opened' }
      | { type: 'server.listed' }
      | { type: 'server.listedNone' }
      | { type: 'server.loadFailed' }
      | { type: 'retry.clicked' }
      | { type: 'add.submitted' }
      | { type: 'server.added' }
      /** The member closed the browser's passkey dialog. */
      | { type: 'member.cancelled' }
      | { type: 'device.unsupported' }
      | { type: 'server.refused' }
      | { type: 'remove.clicked' }
      | { type: 'remove.confirmed' }
      | { type: 'remove.cancelled' }
      | { type: 'server.removed' }
      | { type: 'server.removeFailed' },
  },
}).createMachine({
  id: 'passkeysModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'security.opened': 'loading' } },
    /** 'Loading your passkeys...' */
    loading: { on: { 'server.listed': 'listed', 'server.listedNone': 'none', 'server.loadFailed': 'loadFailed' } },
    /** 'Your passkeys could not be loaded. Please try again.' and Try again. */
    loadFailed: { on: { 'retry.clicked': 'loading' } },
    /** 'You have no passkeys yet.' */
    none: { on: { 'add.submitted': 'adding' } },
    listed: { on: { 'add.submitted': 'adding', 'remove.clicked': 'confirming' } },
    /** 'Adding...', every button waits. */
    adding: {
      on: {
        'server.added': 'added',
        'member.cancelled': 'addCancelled',
        'device.unsupported': 'unsupported',
        'server.refused': 'addRefused',
      },
    },
    /** 'Passkey added.' with the new one listed. */
    added: { on: { 'remove.clicked': 'confirming' } },
    /** 'No passkey was added. You can try again whenever you like.' (a notice, not an alert) */
    addCancelled: { on: { 'add.submitted': 'adding' } },
    /** "This device can't create a passkey." */
    unsupported: {},
    /** The server's message. */
    addRefused: {},
    /** The dialog 'Remove passkey' naming it. */
    confirming: { on: { 'remove.confirmed': 'removing', 'remove.cancelled': 'listed' } },
    /** 'Removing...' */
    removing: { on: { 'server.removed': 'removed', 'server.removeFailed': 'removeRefused' } },
    /** 'Passkey removed.', gone from the list. */
    removed: {},
    /** The server's message; the passkey stays listed. */
    removeRefused: {},
  },
});
