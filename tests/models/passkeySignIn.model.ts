import { setup } from 'xstate';

/**
 * Issue 23 item 1, Log In with a passkey: "Sign in with a passkey" opens the browser's passkey dialog
 * ('Waiting for your passkey...'); the browser may also offer passkeys in the identifier field's
 * suggestions (autofill), waited for while the form stays usable. A verified passkey logs the member
 * in like a password (to `from`). Closing the dialog gets a calm note; a refusal says why; the button
 * works again.
 */
export const passkeySignInModel = setup({
  types: {
    events: {} as
      | { type: 'page.opened' }
      | { type: 'passkey.clicked' }
      | { type: 'server.signedIn' }
      /** The member closed the browser's dialog. */
      | { type: 'member.cancelled' }
      | { type: 'server.refused' }
      | { type: 'server.failedWithoutMessage' }
      /** A passkey picked in the identifier field's suggestions, and the server's session. */
      | { type: 'autofill.signedIn' }
      | { type: 'autofill.refused' }
      /** This browser offers no passkeys in the field (or the suggestions went away). */
      | { type: 'autofill.unavailable' },
  },
}).createMachine({
  id: 'passkeySignInModel',
  initial: 'notOpened',
  states: {
    /** /login?from=/profile */
    notOpened: { on: { 'page.opened': 'ready' } },
    /** The button enabled, the field's suggestions waited for. */
    ready: {
      on: {
        'passkey.clicked': 'waiting',
        'autofill.signedIn': 'loggedInAtFrom',
        'autofill.refused': 'autofillRefused',
        'autofill.unavailable': 'readyWithoutSuggestions',
      },
    },
    readyWithoutSuggestions: { on: { 'passkey.clicked': 'waiting' } },
    /** 'Waiting for your passkey...' */
    waiting: {
      on: {
        'server.signedIn': 'loggedInAtFrom',
        'member.cancelled': 'cancelled',
        'server.refused': 'refused',
        'server.failedWithoutMessage': 'failed',
      },
    },
    /** 'No passkey was used. You can try again whenever you like.' (a notice) */
    cancelled: { on: { 'passkey.clicked': 'waiting' } },
    /** The server's message. */
    refused: {},
    /** 'This passkey could not sign you in. Please try again or log in with your password.' */
    failed: {},
    /** The server's message. */
    autofillRefused: {},
    loggedInAtFrom: {},
  },
});
