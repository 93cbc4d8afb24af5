import { setup } from 'xstate';

/**
 * SPEC §2 Profile / §8: "Log out of all devices", in the Security tab under Signed-in devices (issue 28;
 * it was on the Information tab). The server revokes every token, this device's too, so success lands
 * on /login with a notice; a failure says why and the button works again.
 */
export const logoutAllDevicesModel = setup({
  types: {
    events: {} as
      | { type: 'profile.opened' }
      | { type: 'logoutAll.requested' }
      | { type: 'server.revokedAll' }
      | { type: 'server.refused' }
      | { type: 'server.failedWithoutMessage' },
  },
}).createMachine({
  id: 'logoutAllDevicesModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'profile.opened': 'ready' } },
    ready: { on: { 'logoutAll.requested': 'loggingOut' } },
    loggingOut: {
      on: { 'server.revokedAll': 'onLoginPage', 'server.refused': 'refused', 'server.failedWithoutMessage': 'failed' },
    },
    /** The server's own message. */
    refused: { on: { 'logoutAll.requested': 'loggingOut' } },
    /** 'Failed to log out of all devices' */
    failed: { on: { 'logoutAll.requested': 'loggingOut' } },
    onLoginPage: {},
  },
});
