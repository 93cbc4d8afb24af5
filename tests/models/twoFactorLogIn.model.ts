import { setup } from 'xstate';

/**
 * Issue 23 (second factor at log-in), issue 28 (a burnt ticket said as it is). After a right password with
 * two-factor on, /login asks for 'Authentication code' (the app's code or a recovery code) with Verify and
 * Back. 'Verifying...' while the server checks; a right code logs in to `from`. A wrong code, a void or
 * burnt ticket, or a failure without a message ('Login failed') keep the step with the words; Back returns
 * to the password form with the identifier still typed.
 */
export const twoFactorLogInModel = setup({
  types: {
    events: {} as
      /** /login?from=/profile, the password sent, and the server asks for the code. */
      | { type: 'page.opened' }
      | { type: 'code.submitted' }
      | { type: 'server.acceptedCode' }
      | { type: 'server.refusedCode' }
      /** The ticket is used, expired or revoked. */
      | { type: 'server.ticketVoid' }
      /** The ticket took five wrong codes. */
      | { type: 'server.ticketBurnt' }
      | { type: 'server.failed' }
      | { type: 'secondStep.back' },
  },
}).createMachine({
  id: 'twoFactorLogInModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'page.opened': 'codeForm' } },
    /** 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.' Nothing stored yet. */
    codeForm: { on: { 'code.submitted': 'verifying', 'secondStep.back': 'logInForm' } },
    /** 'Verifying...' */
    verifying: {
      on: {
        'server.acceptedCode': 'loggedInAtFrom',
        'server.refusedCode': 'codeRefused',
        'server.ticketVoid': 'logInExpired',
        'server.ticketBurnt': 'tooManyCodes',
        'server.failed': 'codeFailed',
      },
    },
    /** 'That code is not right. Try again.' */
    codeRefused: { on: { 'code.submitted': 'verifying' } },
    /** 'Your log-in has expired. Please log in again.' */
    logInExpired: {},
    /** 'Too many wrong codes. Please log in again.'; Back leads to the password. */
    tooManyCodes: { on: { 'secondStep.back': 'logInForm' } },
    /** 'Login failed' */
    codeFailed: {},
    /** The password form, the identifier still typed. */
    logInForm: {},
    loggedInAtFrom: {},
  },
});
