import { setup } from 'xstate';

/**
 * SPEC §2 Log In, §4 Logged in or out, §8 social sign-in, §9: Continue with Google or Apple asks the
 * provider for an ID token, which the server exchanges for a session: the person is logged in and
 * goes to `from`, or to /bmi when the account was made under 60 seconds ago. While connecting, the
 * chosen button says 'Connecting...' and all three wait. A cancelled popup or a refused exchange
 * says why and the buttons work again. Continue with Facebook saves `from` and leaves for the server.
 */
export const socialSignInModel = setup({
  types: {
    events: {} as
      | { type: 'page.opened' }
      | { type: 'google.clicked' }
      | { type: 'apple.clicked' }
      | { type: 'facebook.clicked' }
      | { type: 'provider.gaveToken' }
      /** The popup closed without a token or a reason. */
      | { type: 'provider.cancelled' }
      | { type: 'server.signedInReturning' }
      | { type: 'server.signedInNewAccount' }
      | { type: 'server.refused' }
      | { type: 'server.failedWithoutMessage' }
      | { type: 'facebook.ready' }
      | { type: 'facebook.notSetUp' },
  },
}).createMachine({
  id: 'socialSignInModel',
  initial: 'notOpened',
  states: {
    /** /login?from=/profile */
    notOpened: { on: { 'page.opened': 'ready' } },
    ready: { on: { 'google.clicked': 'googlePopup', 'apple.clicked': 'applePopup', 'facebook.clicked': 'facebookChecking' } },
    googlePopup: { on: { 'provider.gaveToken': 'googleExchanging', 'provider.cancelled': 'googleCancelled' } },
    applePopup: { on: { 'provider.gaveToken': 'appleExchanging', 'provider.cancelled': 'appleCancelled' } },
    googleExchanging: {
      on: {
        'server.signedInReturning': 'loggedInAtFrom',
        'server.signedInNewAccount': 'loggedInAtBmi',
        'server.refused': 'googleRefused',
        'server.failedWithoutMessage': 'googleFailed',
      },
    },
    appleExchanging: { on: { 'server.signedInReturning': 'loggedInAtFrom', 'server.failedWithoutMessage': 'appleFailed' } },
    /** 'Google Sign-In was canceled or failed'; trying again clears it. */
    googleCancelled: { on: { 'google.clicked': 'googlePopup' } },
    /** 'Apple Sign-In was canceled or failed' */
    appleCancelled: {},
    /** The server's message. */
    googleRefused: {},
    /** 'Google Sign-In failed' */
    googleFailed: {},
    /** 'Apple Sign-In failed' */
    appleFailed: {},
    facebookChecking: { on: { 'facebook.ready': 'leftForFacebook', 'facebook.notSetUp': 'facebookNotSetUp' } },
    leftForFacebook: {},
    /** The provider client's message. */
    facebookNotSetUp: {},
    loggedInAtFrom: {},
    loggedInAtBmi: {},
  },
});
