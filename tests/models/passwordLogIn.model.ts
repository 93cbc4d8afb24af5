import { setup } from 'xstate';

/**
 * SPEC §2 Log In, §8; issue 23. The form sends the identifier and password ('Logging In...'); a session
 * goes to `from` (here /profile), logged in. The server's refusal is shown, or 'Login failed', and the form
 * is sent again. With two-factor on the code is asked next on the same page; a right code logs in to
 * `from`, and Back returns to the password form with the identifier still typed.
 */
export const passwordLogInModel = setup({
  types: {
    events: {} as
      | { type: 'page.opened' }
      | { type: 'logIn.submitted' }
      | { type: 'server.loggedIn' }
      | { type: 'server.refused' }
      | { type: 'server.failed' }
      | { type: 'server.askedForCode' }
      /** A code typed and accepted by the server. */
      | { type: 'code.accepted' }
      | { type: 'secondStep.back' },
  },
}).createMachine({
  id: 'passwordLogInModel',
  initial: 'notOpened',
  states: {
    /** /login?from=/profile, logged out. */
    notOpened: { on: { 'page.opened': 'logInForm' } },
    logInForm: { on: { 'logIn.submitted': 'loggingIn' } },
    /** 'Logging In...' */
    loggingIn: {
      on: {
        'server.loggedIn': 'loggedInAtFrom',
        'server.refused': 'refused',
        'server.failed': 'failed',
        'server.askedForCode': 'codeForm',
      },
    },
    /** The server's message. */
    refused: { on: { 'logIn.submitted': 'loggingIn' } },
    /** 'Login failed' */
    failed: {},
    /** The code field, nothing stored yet. */
    codeForm: { on: { 'code.accepted': 'loggedInAtFrom', 'secondStep.back': 'logInFormAgain' } },
    /** The password form again, the identifier still typed, the password to type again. */
    logInFormAgain: {},
    loggedInAtFrom: {},
  },
});
