import { setup } from 'xstate';

/**
 * SPEC §2 Social login callback, §4 Social login callback, §8 callback messages, §9: the provider
 * sends the person back to /auth/{provider}/callback. An error parameter goes to /login with that
 * message ('Social login failed' if empty); a code is sent to the server ('Processing login...'),
 * whose success logs the person in and goes to the saved route (default /, the saved value removed),
 * or /bmi for an account made under 60 seconds ago; a failure goes to /login with the server's
 * message or 'Social login failed'. No code: /login with 'Invalid social login response'.
 */
export const socialCallbackModel = setup({
  types: {
    events: {} as
      | { type: 'provider.returnedCode' }
      | { type: 'provider.returnedCodeNothingSaved' }
      | { type: 'provider.returnedError' }
      | { type: 'provider.returnedEmptyError' }
      | { type: 'provider.returnedNoCode' }
      | { type: 'server.connectedReturning' }
      | { type: 'server.connectedNewAccount' }
      | { type: 'server.refused' }
      | { type: 'server.failedWithoutMessage' },
  },
}).createMachine({
  id: 'socialCallbackModel',
  initial: 'notOpened',
  states: {
    notOpened: {
      on: {
        'provider.returnedCode': 'processing',
        'provider.returnedCodeNothingSaved': 'processingNothingSaved',
        'provider.returnedError': 'loginWithProviderError',
        'provider.returnedEmptyError': 'loginSocialFailed',
        'provider.returnedNoCode': 'loginInvalidResponse',
      },
    },
    /** 'Processing login...', a route saved before leaving for the provider. */
    processing: {
      on: {
        'server.connectedReturning': 'loggedInAtSavedRoute',
        'server.connectedNewAccount': 'loggedInAtBmi',
        'server.refused': 'loginWithServerMessage',
        'server.failedWithoutMessage': 'loginSocialFailed',
      },
    },
    /** 'Processing login...', nothing saved. */
    processingNothingSaved: { on: { 'server.connectedReturning': 'loggedInAtHome' } },
    loggedInAtSavedRoute: {},
    loggedInAtBmi: {},
    loggedInAtHome: {},
    // /login with the message in green, logged out.
    loginWithProviderError: {},
    loginWithServerMessage: {},
    /** 'Social login failed' */
    loginSocialFailed: {},
    /** 'Invalid social login response' */
    loginInvalidResponse: {},
  },
});
