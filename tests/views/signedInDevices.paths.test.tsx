import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { fromPromise } from 'xstate';
import type { MemberSession } from '../../server/src/contract/sessions';
import { signedInDevicesMachine } from '../../machines/signedInDevices.machine';
import { SESSIONS_LOAD_FALLBACK, SESSION_SIGN_OUT_FALLBACK } from '../../machines/services/sessions';
import { ApiError } from '../../machines/services/errors';
import { signedInDevicesModel } from '../models/signedInDevices.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { noticeShownFor, seeAlert, seeLoggedOut, seeNotice, seePath } from '../support/pathSteps';
import { formatDateTime } from '../../machines/rules/dates';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';

const SERVER_REFUSAL = 'This session was not found. It may already be signed out.';
const HERE: MemberSession = {
  id: 'here-session-id-0001',
  device: 'Windows computer',
  browser: 'Chrome',
  createdAt: '2026-11-01T10:00:00.000Z',
  lastActiveAt: '2026-11-20T10:00:00.000Z',
  current: true,
};
const PHONE: MemberSession = {
  id: 'phone-session-id-0002',
  device: 'iPhone',
  browser: 'Safari',
  createdAt: '2026-10-03T10:00:00.000Z',
  lastActiveAt: '2026-10-05T10:00:00.000Z',
  current: false,
};

function openSecurity(inspect: Inspect) {
  const loads = deferredCalls<void, MemberSession[]>();
  const signOuts = deferredCalls<{ id: string }, void>();
  const signedInDevices = signedInDevicesMachine.provide({
    actors: {
      loadSessions: fromPromise<MemberSession[]>(() => loads.handler()),
      signOutSession: fromPromise<void, { id: string }>(({ input }) => signOuts.handler(input)),
    },
  });
  return { ...renderProfile('security', { signedInDevices }, {}, inspect), loads, signOuts };
}
type Page = ReturnType<typeof openSecurity>;

const panel = () => screen.getByRole('group', { name: 'Signed-in devices' });
const device = (name: string) => within(panel()).getByRole('listitem', { name });
const HERE_ITEM = 'Chrome on Windows computer, this device';
const PHONE_ITEM = 'Safari on iPhone';

async function seeList(names: string[], signingOut: string | null, alert: string | null, notice: string | null = null) {
  await see(`the devices ${names.join(' and ')}`, () =>
    expect(
      within(panel())
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual(names),
  );
  expect(within(device(HERE_ITEM)).getByText('This device')).toBeTruthy();
  // The time as well as the day (the member's locale and zone: the test's are the browser's).
  expect(
    within(device(HERE_ITEM)).getByText(`Signed in ${formatDateTime(HERE.createdAt)} · Last active ${formatDateTime(HERE.lastActiveAt)}`),
  ).toBeTruthy();
  expect(formatDateTime(HERE.createdAt, 'en-US')).toMatch(/^November 1, 2026(,| at) \d{1,2}:00\s?[AP]M$/);
  for (const name of names) {
    const button = within(device(name)).getByRole('button', {
      name: signingOut === name ? 'Signing out...' : 'Sign out',
    }) as HTMLButtonElement;
    expect(button.disabled).toBe(signingOut !== null);
  }
  await seeAlert(panel, alert);
  await seeNotice(panel, notice);
}

async function seeLoadFailure(alert: string) {
  await seeAlert(panel, alert);
  expect(within(panel()).queryByRole('listitem')).toBeNull();
  expect((within(panel()).getByRole('button', { name: 'Try again' }) as HTMLButtonElement).disabled).toBe(false);
}

describe('signedInDevices: the spec model replayed against the Security tab', () => {
  // The profile's and the tab's lazy chunks, transformed once up front, so the first replay's 3 s waits measure the page, not the transform.
  beforeAll(() => Promise.all([import('../../src/app/ProfileRoute'), import('../../src/features/security/SecurityTab')]), 60_000);
  afterEach(restoreProfileHarness);

  it('uses its messages', () => {
    expect(SESSIONS_LOAD_FALLBACK).toBe('Failed to load your signed-in devices');
    expect(SESSION_SIGN_OUT_FALLBACK).toBe('Failed to sign out this device');
  });

  definePathTests<Page>({
    flow: 'signedInDevices',
    machine: signedInDevicesMachine,
    model: signedInDevicesModel,
    open: { 'securityTab.opened': openSecurity },
    perform: {
      'server.listed': (page) => page.loads.last().settle.resolve([HERE, PHONE]),
      'server.signedOut': (page) => page.signOuts.last().settle.resolve(),
      'server.refused': (page) =>
        (page.signOuts.calls.length > 0 ? page.signOuts : page.loads).last().settle.reject(new ApiError(SERVER_REFUSAL, 404)),
      'server.failedWithoutMessage': (page) =>
        (page.signOuts.calls.length > 0 ? page.signOuts : page.loads).last().settle.reject(new ApiError('', 500)),
      'reload.requested': (page) => page.user.click(within(panel()).getByRole('button', { name: 'Try again' })),
      'otherDevice.signOutRequested': async (page) => {
        await page.user.click(within(device(PHONE_ITEM)).getByRole('button', { name: 'Sign out' }));
        expect(page.signOuts.last().input).toEqual({ id: PHONE.id });
      },
      'thisDevice.signOutRequested': async (page) => {
        await page.user.click(within(device(HERE_ITEM)).getByRole('button', { name: 'Sign out' }));
        expect(page.signOuts.last().input).toEqual({ id: HERE.id });
      },
      'time.passed3s': noticeShownFor(3000, panel, 'Signed out.'),
    },
    screens: {
      loading: () => see("the status 'Loading your devices...'", () => within(panel()).getByRole('status')),
      loadRefused: () => seeLoadFailure(SERVER_REFUSAL),
      loadFailed: () => seeLoadFailure('Failed to load your signed-in devices'),
      listed: () => seeList([HERE_ITEM, PHONE_ITEM], null, null),
      signingOutOther: () => seeList([HERE_ITEM, PHONE_ITEM], PHONE_ITEM, null),
      signOutRefused: () => seeList([HERE_ITEM, PHONE_ITEM], null, SERVER_REFUSAL),
      signOutFailed: () => seeList([HERE_ITEM, PHONE_ITEM], null, 'Failed to sign out this device'),
      otherGone: () => seeList([HERE_ITEM], null, null, 'Signed out.'),
      otherGoneQuiet: () => seeList([HERE_ITEM], null, null),
      signingOutHere: (page) => seeList(page.signOuts.calls.length > 1 ? [HERE_ITEM] : [HERE_ITEM, PHONE_ITEM], HERE_ITEM, null),
      loggedOut: async (page) => {
        // Like the bar's Log Out on a member's page: /login, with the way back to Security.
        await seePath(page, '/login');
        await seeLoggedOut();
      },
    },
  });
});
