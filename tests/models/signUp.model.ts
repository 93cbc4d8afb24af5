import { setup } from 'xstate';

/**
 * SPEC §2 Sign Up, §5 Sign up, §8: the form checks what is typed first (all fields, a valid e-mail, a
 * username the server would take), then 'Signing Up...'. A session goes to /profile, logged in; under
 * e-mail confirmation the server sends none and /login says to confirm first (Back returns to the form).
 * The server's refusal is shown, or 'Registration failed'. A form's error stays on its page.
 */
export const signUpModel = setup({
  types: {
    events: {} as
      | { type: 'page.opened' }
      | { type: 'signUp.submittedBlank' }
      | { type: 'signUp.submittedBadEmail' }
      /** A username the server would refuse (SPEC §8: its message is shown), caught before sending. */
      | { type: 'signUp.submittedBadUsername' }
      | { type: 'signUp.submittedValid' }
      | { type: 'server.signedUp' }
      /** The server makes the account but sends no session: the e-mail must be confirmed first. */
      | { type: 'server.signedUpAwaitingConfirmation' }
      | { type: 'server.refused' }
      | { type: 'server.failed' }
      | { type: 'logIn.linkFollowed' }
      | { type: 'signUp.linkFollowed' }
      | { type: 'browser.back' },
  },
}).createMachine({
  id: 'signUpModel',
  initial: 'notOpened',
  states: {
    /** /signup, logged out. */
    notOpened: { on: { 'page.opened': 'signUpForm' } },
    signUpForm: {
      on: {
        'signUp.submittedBlank': 'incomplete',
        'signUp.submittedBadUsername': 'badUsername',
        'signUp.submittedValid': 'signingUp',
      },
    },
    /** 'Please fill in all required fields.' */
    incomplete: {
      on: { 'signUp.submittedBadEmail': 'badEmail', 'signUp.submittedValid': 'signingUp', 'logIn.linkFollowed': 'logInPage' },
    },
    /** 'Please enter a valid email address.' */
    badEmail: {},
    /** The server's username rule, nothing sent. */
    badUsername: {},
    /** 'Signing Up...' */
    signingUp: {
      on: {
        'server.signedUp': 'memberProfile',
        'server.signedUpAwaitingConfirmation': 'confirmEmailNotice',
        'server.refused': 'refused',
        'server.failed': 'failed',
      },
    },
    /** The server's message. */
    refused: {},
    /** 'Registration failed' */
    failed: {},
    /** /login without the sign-up's error. */
    logInPage: { on: { 'signUp.linkFollowed': 'signUpForm' } },
    /** /login with 'Your account has been created. Please confirm your email address ...', nothing stored. */
    confirmEmailNotice: { on: { 'browser.back': 'signUpForm' } },
    memberProfile: {},
  },
});
