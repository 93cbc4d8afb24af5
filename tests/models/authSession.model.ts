import { setup } from 'xstate';

/**
 * SPEC §2 Navigation bar, Sign Up, Log In, routes; §4 Logged in or out, busy labels; §5 Sign up;
 * §8 auth fallbacks. Logged in or out follows the stored jwt (read at start and on every storage
 * change). Sign-up goes to /profile, log-in to `from` (default /). The session ends by Log Out, by
 * the server refusing the token, by deleting the account, by logging out everywhere, by a password
 * change that brings no new token or by a password reset; all but Log Out show /login with why.
 * The green notice on /login goes away once the person leaves the page; a form's error too.
 */
export const authSessionModel = setup({
  types: {
    events: {} as
      | { type: 'app.openedLoggedOut' }
      | { type: 'app.openedLoggedIn' }
      | { type: 'signUp.opened' }
      | { type: 'logIn.opened' }
      /** A visitor asks for /profile: the app sends them to /login first. */
      | { type: 'profile.openedLoggedOut' }
      | { type: 'signUp.submittedBlank' }
      | { type: 'signUp.submittedBadEmail' }
      /** A username the server would refuse (SPEC §8: its message is shown), caught before sending. */
      | { type: 'signUp.submittedBadUsername' }
      | { type: 'signUp.submittedValid' }
      | { type: 'server.signedUp' }
      /** The server makes the account but sends no session: the e-mail must be confirmed first. */
      | { type: 'server.signedUpAwaitingConfirmation' }
      | { type: 'server.refusedSignUp' }
      | { type: 'server.failedSignUp' }
      | { type: 'logIn.submitted' }
      | { type: 'server.loggedIn' }
      | { type: 'server.refusedLogIn' }
      | { type: 'server.failedLogIn' }
      /** Issue 23: the password is right and two-factor is on; the code comes next. */
      | { type: 'server.askedForCode' }
      | { type: 'code.submitted' }
      | { type: 'server.acceptedCode' }
      | { type: 'server.refusedCode' }
      /** The ticket is used, expired or revoked: the member goes Back to the password. */
      | { type: 'server.ticketVoid' }
      /** The ticket took five wrong codes (issue 28: said as it is, not "expired"). */
      | { type: 'server.ticketBurnt' }
      | { type: 'secondStep.back' }
      | { type: 'google.signedIn' }
      | { type: 'logOut.clicked' }
      | { type: 'otherTab.loggedIn' }
      | { type: 'otherTab.loggedOut' }
      | { type: 'profile.opened' }
      | { type: 'profile.openedTokenRefused' }
      | { type: 'profile.openedSignedOutElsewhere' }
      | { type: 'account.deletedOnDeletePage' }
      | { type: 'allDevices.loggedOut' }
      | { type: 'password.changed' }
      | { type: 'password.changedWithoutToken' }
      | { type: 'resetLink.followed' }
      /** The provider sends the person back to the social callback with an error. */
      | { type: 'provider.returnedError' },
  },
}).createMachine({
  id: 'authSessionModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'app.openedLoggedOut': 'visitorHome', 'app.openedLoggedIn': 'memberHome' } },

    // Logged out: the bar has Log In and Sign Up, nothing is stored.
    visitorHome: {
      on: {
        'signUp.opened': 'signUpForm',
        'logIn.opened': 'logInForm',
        'profile.openedLoggedOut': 'logInForProfile',
        'otherTab.loggedIn': 'memberHome',
        'resetLink.followed': 'passwordResetNotice',
        'provider.returnedError': 'socialFailureNotice',
      },
    },
    signUpForm: {
      on: {
        'signUp.submittedBlank': 'signUpIncomplete',
        'signUp.submittedBadEmail': 'signUpBadEmail',
        'signUp.submittedBadUsername': 'signUpBadUsername',
        'signUp.submittedValid': 'signingUp',
      },
    },
    /** 'Please fill in all required fields.' */
    signUpIncomplete: {
      on: { 'signUp.submittedBadEmail': 'signUpBadEmail', 'signUp.submittedValid': 'signingUp', 'logIn.opened': 'logInForm' },
    },
    /** 'Please enter a valid email address.' */
    signUpBadEmail: {},
    signUpBadUsername: {},
    /** 'Signing Up...' */
    signingUp: {
      on: {
        'server.signedUp': 'memberProfile',
        'server.signedUpAwaitingConfirmation': 'confirmEmailNotice',
        'server.refusedSignUp': 'signUpRefused',
        'server.failedSignUp': 'signUpFailed',
      },
    },
    /** The server's message. */
    signUpRefused: {},
    /** 'Registration failed' */
    signUpFailed: {},
    logInForm: { on: { 'logIn.submitted': 'loggingIn', 'google.signedIn': 'memberHome' } },
    /** /login?from=/profile */
    logInForProfile: { on: { 'logIn.submitted': 'loggingInForProfile' } },
    /** 'Logging In...' */
    loggingIn: {
      on: {
        'server.loggedIn': 'memberHome',
        'server.refusedLogIn': 'logInRefused',
        'server.failedLogIn': 'logInFailed',
        'server.askedForCode': 'codeForm',
      },
    },
    /** 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.' Nothing stored yet. */
    codeForm: { on: { 'code.submitted': 'verifyingCode', 'secondStep.back': 'logInForm', 'signUp.opened': 'signUpForm' } },
    /** 'Verifying...' */
    verifyingCode: {
      on: {
        'server.acceptedCode': 'memberHome',
        'server.refusedCode': 'codeRefused',
        'server.ticketVoid': 'logInExpired',
        'server.ticketBurnt': 'tooManyCodes',
      },
    },
    /** 'That code is not right. Try again.' */
    codeRefused: { on: { 'code.submitted': 'verifyingCode' } },
    /** 'Too many wrong codes. Please log in again.' on the code form; Back leads to the password, the identifier still typed. */
    tooManyCodes: { on: { 'secondStep.back': 'logInForm' } },
    /** 'Your log-in has expired. Please log in again.' on the code form; Back leads to the password. */
    logInExpired: { on: { 'secondStep.back': 'logInForm' } },
    loggingInForProfile: { on: { 'server.loggedIn': 'memberProfile' } },
    /** The server's message. */
    logInRefused: { on: { 'logIn.submitted': 'loggingIn' } },
    /** 'Login failed' */
    logInFailed: {},

    // /login with a green notice, logged out.
    confirmEmailNotice: { on: { 'logIn.submitted': 'loggingIn' } },
    sessionExpiredNotice: { on: { 'signUp.opened': 'signUpForm' } },
    /** Issue 28: the server said this session was signed out from another device (not that it expired). */
    signedOutElsewhereNotice: {},
    accountDeletedNotice: {},
    loggedOutEverywhereNotice: {},
    passwordResetNotice: {},
    /** The provider's error. */
    socialFailureNotice: {},

    // Logged in: the bar has Profile and Log Out, the token and user id are stored.
    memberHome: {
      on: {
        'logOut.clicked': 'visitorHome',
        'otherTab.loggedOut': 'visitorHome',
        'profile.opened': 'memberProfile',
        'profile.openedTokenRefused': 'sessionExpiredNotice',
        'profile.openedSignedOutElsewhere': 'signedOutElsewhereNotice',
        'account.deletedOnDeletePage': 'accountDeletedNotice',
        // /login is for visitors: a member asked to log in again stays where /login sends members.
        'provider.returnedError': 'memberHome',
      },
    },
    memberProfile: {
      on: {
        'password.changed': 'memberProfile',
        'password.changedWithoutToken': 'sessionExpiredNotice',
        'allDevices.loggedOut': 'loggedOutEverywhereNotice',
      },
    },
  },
});
