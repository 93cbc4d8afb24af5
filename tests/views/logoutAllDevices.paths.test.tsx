import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { createActor, fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { authMessages, authSessionMachine } from '../../machines/authSession.machine';
import { logoutAllDevicesMachine } from '../../machines/logoutAllDevices.machine';
import { LOGOUT_ALL_FALLBACK } from '../../src/api/account';
import { ApiError } from '../../src/api/errors';
import { SESSION_KEYS } from '../../src/auth/session';
import { deferredCalls } from '../support/deferred';
import { describePath, leafStateIds, transitionCoveringPaths, type ModelPath } from '../support/modelPaths';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';
import { settle } from '../support/settle';

const events: AnyEventObject[] = [
  { type: 'logoutAll.requested' },
  { type: 'xstate.done.actor.logoutAllDevices' },
  { type: 'xstate.error.actor.logoutAllDevices', label: 'server message', error: new ApiError('Too many requests, please try again later.', 429) },
  { type: 'xstate.error.actor.logoutAllDevices', label: 'fallback', error: new ApiError(LOGOUT_ALL_FALLBACK, 500) },
];
const describeEvent = (event: AnyEventObject) => (event.label ? `${event.type}(${event.label})` : event.type);
const paths = transitionCoveringPaths(logoutAllDevicesMachine, {
  events,
  // The model only needs a reference to an auth actor; the replays use the app's own.
  input: { auth: createActor(authSessionMachine, { input: { session: null } }) },
});

function harness() {
  const requests = deferredCalls<void, void>();
  const logoutAllDevices = logoutAllDevicesMachine.provide({
    actors: { logoutAllDevices: fromPromise<void>(() => requests.handler()) },
  });
  return { ...renderProfile('information', { logoutAllDevices }), requests };
}
type Harness = ReturnType<typeof harness>;
const devicesGroup = () => within(screen.getByRole('region', { name: 'Password' })).getByRole('group', { name: 'All devices' });
const nav = () => screen.getByRole('navigation', { name: 'Main' });

async function perform(event: AnyEventObject, page: Harness) {
  switch (event.type) {
    case 'logoutAll.requested':
      await page.user.click(within(devicesGroup()).getByRole('button', { name: 'Log out of all devices' }));
      return;
    case 'xstate.done.actor.logoutAllDevices':
      page.requests.last().settle.resolve();
      return;
    case 'xstate.error.actor.logoutAllDevices':
      page.requests.last().settle.reject(event.error);
      return;
    default:
      throw new Error(`No way to perform ${event.type}`);
  }
}

async function expectScreen(state: AnyMachineSnapshot, page: Harness) {
  if (state.matches('done')) {
    // Every token is revoked, this device's too: logged out, on /login with the notice.
    await settle(() => expect(page.router.state.location.pathname).toBe('/login'));
    await settle(() => expect(screen.getByRole('status').textContent).toBe(authMessages.loggedOutEverywhere));
    // The profile entry is replaced: Back does not return to a page that needs the revoked session.
    expect(page.router.history.length).toBe(1);
    expect(within(nav()).getByRole('link', { name: 'Log In' })).toBeTruthy();
    expect(within(nav()).queryByRole('button', { name: 'Log Out' })).toBeNull();
    expect(localStorage.getItem(SESSION_KEYS.jwt)).toBeNull();
    expect(localStorage.getItem(SESSION_KEYS.userId)).toBeNull();
    return;
  }
  await settle(() => devicesGroup());
  expect(within(nav()).getByRole('button', { name: 'Log Out' })).toBeTruthy();
  expect(localStorage.getItem(SESSION_KEYS.jwt)).toBe('member-token');
  const busy = state.hasTag('busy');
  const button = within(devicesGroup()).getByRole('button', { name: busy ? 'Logging out...' : 'Log out of all devices' }) as HTMLButtonElement;
  expect(button.disabled).toBe(busy);
  if (state.matches('failure')) {
    expect(within(devicesGroup()).getByRole('alert').textContent).toBe(state.context.error);
  } else {
    expect(within(devicesGroup()).queryByRole('alert')).toBeNull();
  }
}

describe('logoutAllDevices machine: model-based paths replayed against the profile password panel', () => {
  afterEach(restoreProfileHarness);

  it('reaches every state and takes every event, with the fallback message', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.flatMap(({ state }) => state._nodes.map((node: { id: string }) => node.id))));
    expect(leafStateIds(logoutAllDevicesMachine).filter((id) => !reached.has(id))).toEqual([]);
    const taken = new Set(paths.flatMap((path) => path.steps.slice(1).map((step) => describeEvent(step.event))));
    expect(events.map(describeEvent).filter((name) => !taken.has(name))).toEqual([]);
    expect(LOGOUT_ALL_FALLBACK).toBe('Failed to log out of all devices');
    expect(authMessages.loggedOutEverywhere).toBe('You have been logged out of all devices.');
  });

  it.each(paths.map((path): [string, ModelPath] => [describePath(path, describeEvent), path]))('%s', async (_name, path) => {
    const page = harness();
    await expectScreen(path.steps[0].state, page);
    for (const step of path.steps.slice(1)) {
      await perform(step.event, page);
      await expectScreen(step.state, page);
    }
  });
});
