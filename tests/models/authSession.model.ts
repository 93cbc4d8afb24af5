import { setup } from 'xstate';

/**
 * SPEC §2 Navigation bar, Log In, routes; §4 Logged in or out. Logged in or out follows the stored jwt
 * (read at start and on every storage change). A sign-in (here the Log In form, or Google) starts the
 * session: the form goes to `from` (default /). The session ends by Log Out, by the server refusing the
 * token, by deleting the account, by logging out everywhere, by a password change that brings no new token
 * or by a password reset; all but Log Out show /login with why. The green notice on /login goes away once
 * the person leaves the page or logs in from it. (Sign-up, the password and the second step have their own
 * models: signUp, passwordLogIn, twoFactorLogIn.)
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
      | { type: 'logIn.submitted' }
      | { type: 'server.loggedIn' }
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
        'logIn.opened': 'logInForm',
        'profile.openedLoggedOut': 'logInForProfile',
        'otherTab.loggedIn': 'memberHome',
        'resetLink.followed': 'passwordResetNotice',
        'provider.returnedError': 'socialFailureNotice',
      },
    },
    logInForm: { on: { 'logIn.submitted': 'loggingIn', 'google.signedIn': 'memberHome' } },
    /** /login?from=/profile */
    logInForProfile: { on: { 'logIn.submitted': 'loggingInForProfile' } },
    /** 'Logging In...', no notice. */
    loggingIn: { on: { 'server.loggedIn': 'memberHome' } },
    loggingInForProfile: { on: { 'server.loggedIn': 'memberProfile' } },
    /** /signup, the notice gone. */
    signUpForm: {},

    // /login with a green notice, logged out.
    sessionExpiredNotice: { on: { 'signUp.opened': 'signUpForm', 'logIn.submitted': 'loggingIn' } },
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
