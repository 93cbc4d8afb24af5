// @ts-nocheck
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { createActor, fromPromise, type AnyEventObject, type AnyMachineSnapshot, type InputFrom } from 'xstate';
import { authSessionMachine } from '../../machines/authSession.machine';
import { INVALID_SOCIAL_RESPONSE, socialCallbackMachine } from '../../machines/socialCallback.machine';
import { ApiError } from '../../src/api/errors';
import type { AuthResponse } from '../../server/src/contract/auth';
import { SESSION_KEYS, SOCIAL_REDIRECT_KEY } from '../../src/auth/session';
import { deferredCalls } from '../support/deferred';
import { describePath, transitionCoveringPaths, type ModelPath } from '../support/modelPaths';
import { fakeServer, renderApp } from '../support/renderApp';

type Scenario = { name: string; url: string; input: InputFrom<typeof socialCallbackMachine> };

// The graph only computes snapshots: the auth actor the machine sends to is never started.
const auth = createActor(authSessionMachine, { input: { session: null } });

const scenarios: Scenario[] = [
  {
    name: 'code from Facebook',
    url: '/auth/facebook/callback?code=fb-code&state=st-1',
    input: { auth, provider: 'facebook', code: 'fb-code', state: 'st-1', error: undefined, savedRedirect: '/profile' },
  },
  { name: 'provider error', url: '/auth/facebook/callback?error=access_denied', input: { auth, provider: 'facebook', code: undefined, error: 'access_denied', savedRedirect: '/profile' } },
  { name: 'empty provider error', url: '/auth/facebook/callback?error=', input: { auth, provider: 'facebook', code: undefined, error: '', savedRedirect: '/profile' } },
  { name: 'no code', url: '/auth/facebook/callback', input: { auth, provider: 'facebook', code: undefined, error: undefined, savedRedirect: '/profile' } },
];

const returning: AuthResponse = { jwt: 'jwt-fb', user: { id: 21, createdAt: '2024-01-01T00:00:00.000Z' } };
const events: AnyEventObject[] = [
  { type: 'xstate.done.actor.connect', output: returning, label: 'returning member' },
  { type: 'xstate.done.actor.connect', output: returning, label: 'new member' },
  { type: 'xstate.error.actor.connect', error: new ApiError('Your Facebook account has no e-mail address.', 400), label: 'server message' },
  { type: 'xstate.error.actor.connect', error: new ApiError('', 502), label: 'no message' },
];
const describeEvent = (event: AnyEventObject) => (event.label ? `${event.type}(${event.label})` : event.type);

function harness(scenario: Scenario) {
  const connects = deferredCalls<{ provider: string; code: string; state?: string }, AuthResponse>();
  const socialCallback = socialCallbackMachine.provide({
    actors: { connect: fromPromise(({ input }: { input: { provider: string; code: string; state?: string } }) => connects.handler(input)) },
  });
  if (scenario.input.savedRedirect) localStorage.setItem(SOCIAL_REDIRECT_KEY, scenario.input.savedRedirect);
  return { ...renderApp(scenario.url, { flows: { socialCallback } }), connects };
}
type Harness = ReturnType<typeof harness>;

async function perform(event: AnyEventObject, page: Harness) {
  const call = page.connects.last();
  if (event.type === 'xstate.done.actor.connect') {
    call.settle.resolve(event.label === 'new member' ? { jwt: 'jwt-fb-new', user: { id: 22, createdAt: new Date().toISOString() } } : event.output);
  } else {
    call.settle.reject(event.error);
  }
}

async function expectScreen(state: AnyMachineSnapshot, event: AnyEventObject, page: Harness, scenario: Scenario) {
  if (state.matches('processing')) {
    expect((await screen.findByRole('status')).textContent).toBe('Processing login...');
    expect(page.connects.last().input).toEqual({ provider: 'facebook', code: 'fb-code', state: 'st-1' });
    return;
  }
  if (state.matches('signedIn')) {
    const target = event.label === 'new member' ? '/bmi' : '/profile';
    await waitFor(() => expect(page.router.state.location.pathname).toBe(target));
    expect(localStorage.getItem(SESSION_KEYS.jwt)).toBe(event.label === 'new member' ? 'jwt-fb-new' : 'jwt-fb');
    expect(localStorage.getItem(SOCIAL_REDIRECT_KEY)).toBeNull();
    return;
  }
  // failed: back to /login with the message in green.
  const expected =
    event.type === 'xstate.error.actor.connect'
      ? event.error.message || 'Social login failed'
      : scenario.input.error !== undefined
        ? scenario.input.error || 'Social login failed'
        : INVALID_SOCIAL_RESPONSE;
  await waitFor(() => expect(page.router.state.location.pathname).toBe('/login'));
  await screen.findByRole('heading', { name: 'Log In' });
  expect((await screen.findByRole('status')).textContent).toBe(expected);
  expect(localStorage.getItem(SESSION_KEYS.jwt)).toBeNull();
}

describe('socialCallback machine: model-based paths replayed against /auth/{provider}/callback', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fakeServer().fetch);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  // Only a code reaches the server; the other scenarios end at once (next test).
  const cases = transitionCoveringPaths(socialCallbackMachine, { events, input: scenarios[0].input }).map(
    (path): [string, Scenario, ModelPath] => [`${scenarios[0].name}: ${describePath(path, describeEvent)}`, scenarios[0], path],
  );

  it('covers every state and every server answer', () => {
    const states = new Set(cases.flatMap(([, , path]) => path.steps.map((step) => JSON.stringify(step.state.value))));
    expect([...states].sort()).toEqual(['"failed"', '"processing"', '"signedIn"']);
    const labels = new Set(cases.flatMap(([, , path]) => path.steps.slice(1).map((step) => describeEvent(step.event))));
    expect(events.map(describeEvent).filter((name) => !labels.has(name))).toEqual([]);
  });

  it.each(cases)('%s', async (_name, scenario, path) => {
    const page = harness(scenario);
    await expectScreen(path.steps[0].state, path.steps[0].event, page, scenario);
    for (const step of path.steps.slice(1)) {
      await perform(step.event, page);
      await expectScreen(step.state, step.event, page, scenario);
    }
  });

  it('goes straight to /login for the outcomes decided without the server', async () => {
    for (const scenario of scenarios.slice(1)) {
      const page = harness(scenario);
      const state = createActor(socialCallbackMachine, { input: scenario.input }).getSnapshot();
      expect(state.value).toBe('failed');
      await expectScreen(state, { type: 'xstate.init' }, page, scenario);
      expect(page.connects.calls).toHaveLength(0);
      page.unmount();
      localStorage.clear();
    }
  });
});
