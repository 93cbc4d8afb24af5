// @ts-nocheck
import { setup } from 'xstate';

/**
 * SPEC §2 Reset Password, §4 Reset flow, §5, §8: step 1 asks for the e-mail and sends a code; step 2
 * asks for the code and the new password twice, prefilled and shown directly when the link carried
 * a code. Invalid input shows the rule's message, a refusal the server's. Success goes to /login.
 */
export const passwordResetModel = setup({
  types: {
    events: {} as
      | { type: 'page.opened' }
      | { type: 'page.openedWithCode' }
      | { type: 'email.submittedBlank' }
      | { type: 'email.submittedMalformed' }
      | { type: 'email.submittedValid' }
      | { type: 'server.codeSent' }
      | { type: 'server.refusedRequest' }
      | { type: 'server.refusedReset' }
      | { type: 'reset.submittedWithoutCode' }
      | { type: 'reset.submittedWithoutPassword' }
      | { type: 'reset.submittedMismatch' }
      | { type: 'reset.submittedShort' }
      | { type: 'reset.submittedValid' }
      | { type: 'reset.submittedWithLinkCode' }
      | { type: 'code.requestedAgain' }
      | { type: 'server.reset' },
  },
}).createMachine({
  id: 'passwordResetModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'page.opened': 'emailEntry', 'page.openedWithCode': 'codeFromLink' } },
    emailEntry: {
      on: { 'email.submittedBlank': 'emailInvalid', 'email.submittedMalformed': 'emailInvalid', 'email.submittedValid': 'sending' },
    },
    emailInvalid: { on: { 'email.submittedValid': 'sending' } },
    sending: { on: { 'server.codeSent': 'codeSent', 'server.refusedRequest': 'emailRefused' } },
    emailRefused: { on: { 'email.submittedValid': 'sending' } },
    /** 'If an account exists for …' */
    codeSent: {
      on: {
        'reset.submittedWithoutCode': 'resetInvalid',
        'reset.submittedWithoutPassword': 'resetInvalid',
        'reset.submittedMismatch': 'resetInvalid',
        'reset.submittedShort': 'resetInvalid',
        'reset.submittedValid': 'resetting',
        'code.requestedAgain': 'emailEntry',
      },
    },
    /** The code from the link, prefilled. */
    codeFromLink: { on: { 'reset.submittedWithLinkCode': 'resetting' } },
    resetInvalid: { on: { 'reset.submittedValid': 'resetting' } },
    resetting: { on: { 'server.reset': 'loginPage', 'server.refusedReset': 'resetRefused' } },
    resetRefused: { on: { 'code.requestedAgain': 'emailEntry' } },
    loginPage: {},
  },
});
