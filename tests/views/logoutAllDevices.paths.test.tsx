import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { fromPromise } from 'xstate';
import { authMessages } from '../../machines/authSession.machine';
import { logoutAllDevicesMachine } from '../../machines/logoutAllDevices.machine';
import { LOGOUT_ALL_FALLBACK } from '../../machines/services/account';
import { ApiError } from '../../machines/services/errors';
import { SESSION_KEYS } from '../../machines/services/session';
import { logoutAllDevicesModel } from '../models/logoutAllDevices.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { seeAlert, seeLoggedOut, seeLoginPage } from '../support/pathSteps';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';

const SERVER_REFUSAL = 'Too many requests, please try again later.';

function openProfile(inspect: Inspect) {
  const requests = deferredCalls<void, void>();
  const logoutAllDevices = logoutAllDevicesMachine.provide({
    actors: { logoutAllDevices: fromPromise<void>(() => requests.handler()) },
  });
  return { ...renderProfile('security', { logoutAllDevices }, {}, inspect), requests };
}
type Page = ReturnType<typeof openProfile>;
// Under the Security tab's Signed-in devices (issue 28), not the Information tab.
const devicesGroup = () => within(screen.getByRole('group', { name: 'Signed-in devices' })).getByRole('group', { name: 'All devices' });

async function expectStillLoggedIn(busy: boolean, alert: string | null) {
  await see("the group 'All devices'", devicesGroup);
  expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Log Out' })).toBeTruthy();
  expect(localStorage.getItem(SESSION_KEYS.jwt)).toBe('member-token');
  const button = within(devicesGroup()).getByRole('button', {
    name: busy ? 'Logging out...' : 'Log out of all devices',
  }) as HTMLButtonElement;
  expect(button.disabled).toBe(busy);
  await seeAlert(devicesGroup, alert);
}

describe('logoutAllDevices: the spec model replayed against the profile password panel', () => {
  // The Security tab is a lazy chunk: transformed once up front, so the first replay's waits measure the page.
  beforeAll(() => import('../../src/features/security/SecurityTab'), 60_000);
  afterEach(restoreProfileHarness);

  it('uses the spec messages', () => {
    expect(LOGOUT_ALL_FALLBACK).toBe('Failed to log out of all devices');
    expect(authMessages.loggedOutEverywhere).toBe('You have been logged out of all devices.');
  });

  definePathTests<Page>({
    flow: 'logoutAllDevices',
    machine: logoutAllDevicesMachine,
    model: logoutAllDevicesModel,
    open: { 'profile.opened': openProfile },
    perform: {
      'logoutAll.requested': (page) => page.user.click(within(devicesGroup()).getByRole('button', { name: 'Log out of all devices' })),
      'server.revokedAll': (page) => page.requests.last().settle.resolve(),
      'server.refused': (page) => page.requests.last().settle.reject(new ApiError(SERVER_REFUSAL, 429)),
      'server.failedWithoutMessage': (page) => page.requests.last().settle.reject(new ApiError('', 500)),
    },
    screens: {
      ready: () => expectStillLoggedIn(false, null),
      loggingOut: () => expectStillLoggedIn(true, null),
      refused: () => expectStillLoggedIn(false, SERVER_REFUSAL),
      failed: () => expectStillLoggedIn(false, 'Failed to log out of all devices'),
      onLoginPage: async (page) => {
        // Every token is revoked, this device's too: logged out, on /login with the notice.
        await seeLoginPage(page, 'You have been logged out of all devices.');
        // The profile entry is replaced: Back does not return to a page that needs the revoked session.
        expect(page.router.history.length).toBe(1);
        await seeLoggedOut();
      },
    },
  });
});
