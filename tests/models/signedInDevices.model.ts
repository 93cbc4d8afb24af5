import { setup } from 'xstate';

/**
 * Issue 23 item 3: Security lists the member's signed-in devices ("This device" marked) and signs any
 * one of them out. Another device disappears from the list; this device's sign-out ends the session
 * here, like Log Out. A failure says why and leaves the list as it was.
 * Issue 28: each device with the date and time it signed in and was last active; "Signed out." for
 * 3 s after another device is signed out.
 */
export const signedInDevicesModel = setup({
  types: {
    events: {} as
      | { type: 'securityTab.opened' }
      | { type: 'server.listed' }
      | { type: 'server.signedOut' }
      | { type: 'server.refused' }
      | { type: 'server.failedWithoutMessage' }
      | { type: 'reload.requested' }
      | { type: 'otherDevice.signOutRequested' }
      | { type: 'thisDevice.signOutRequested' }
      | { type: 'time.passed3s' },
  },
}).createMachine({
  id: 'signedInDevicesModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'securityTab.opened': 'loading' } },
    loading: { on: { 'server.listed': 'listed', 'server.refused': 'loadRefused', 'server.failedWithoutMessage': 'loadFailed' } },
    /** The server's own message, and Try again. */
    loadRefused: { on: { 'reload.requested': 'loading' } },
    /** 'Failed to load your signed-in devices', and Try again. */
    loadFailed: { on: { 'reload.requested': 'loading' } },
    /** This device and the phone. */
    listed: { on: { 'otherDevice.signOutRequested': 'signingOutOther', 'thisDevice.signOutRequested': 'signingOutHere' } },
    signingOutOther: {
      on: { 'server.signedOut': 'otherGone', 'server.refused': 'signOutRefused', 'server.failedWithoutMessage': 'signOutFailed' },
    },
    /** The server's own message; both devices still listed. */
    signOutRefused: { on: { 'otherDevice.signOutRequested': 'signingOutOther' } },
    /** 'Failed to sign out this device'; both devices still listed. */
    signOutFailed: { on: { 'otherDevice.signOutRequested': 'signingOutOther' } },
    /** Only this device is listed, under 'Signed out.' */
    otherGone: { on: { 'thisDevice.signOutRequested': 'signingOutHere', 'time.passed3s': 'otherGoneQuiet' } },
    /** The notice is gone; this device can still be signed out. */
    otherGoneQuiet: { on: { 'thisDevice.signOutRequested': 'signingOutHere' } },
    signingOutHere: { on: { 'server.signedOut': 'loggedOut' } },
    loggedOut: {},
  },
});
