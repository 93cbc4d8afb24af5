// @ts-nocheck
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor, fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { authSessionMachine } from '../../machines/authSession.machine';
import { socialSignInMachine, type PopupProvider } from '../../machines/socialSignIn.machine';
import { ApiError } from '../../src/api/errors';
import type { AuthResponse } from '../../server/src/contract/auth';
import { SESSION_KEYS } from '../../src/auth/session';
import { providerMessages } from '../../src/features/auth/social/providerClients';
import { deferredCalls } from '../support/deferred';
import { describePath, leafStateIds, transitionCoveringPaths, type ModelPath } from '../support/modelPaths';
import { fakeServer, renderApp } from '../support/renderApp';

const returningMember: AuthResponse = { jwt: 'jwt-returning', user: { id: 7, createdAt: '2024-03-01T10:00:00.000Z' } };
const newMember = (): AuthResponse => ({ jwt: 'jwt-new', user: { id: 8, createdAt: new Date().toISOString() } });

const events: AnyEventObject[] = [
  { type: 'popup.requested', provider: 'google', returnTo: '/profile' },
  { type: 'popup.requested', provider: 'apple', returnTo: '/profile' },
  { type: 'redirect.requested', returnTo: '/profile' },
  { type: 'xstate.done.actor.authorize', output: 'id-token-from-provider' },
  { type: 'xstate.error.actor.authorize', error: new Error(providerMessages.googleCancelled) },
  { type: 'xstate.done.actor.exchangeToken', output: returningMember, label: 'returning member' },
  { type: 'xstate.done.actor.exchangeToken', output: { jwt: 'jwt-new', user: { id: 8, createdAt: 'just now' } }, label: 'new member' },
  { type: 'xstate.error.actor.exchangeToken', error: new ApiError('Email is already taken.', 400) },
  { type: 'xstate.done.actor.checkRedirectProvider' },
  { type: 'xstate.error.actor.checkRedirectProvider', error: new Error(providerMessages.facebookNotSetUp) },
];
const describeEvent = (event: AnyEventObject) =>
  event.type.endsWith('.requested') ? `${event.type}(${event.provider ?? 'facebook'})` : event.label ? `${event.type}(${event.label})` : event.type;
const paths = transitionCoveringPaths(socialSignInMachine, {
  events,
  // The graph only computes snapshots: the auth actor the machine sends to is never started.
  input: { auth: createActor(authSessionMachine, { input: { session: null } }) },
  transitionKey: (state, event) => JSON.stringify([state.value, state.context.provider, state.context.error === null, describeEvent(event)]),
});

const buttonNames = { google: 'Continue with Google', apple: 'Continue with Apple', facebook: 'Continue with Facebook' } as const;

function harness() {
  const authorizations = deferredCalls<{ provider: PopupProvider }, string>();
  const exchanges = deferredCalls<{ provider: PopupProvider; token: string }, AuthResponse>();
  const checks = deferredCalls<void, void>();
  const saveReturnRoute = vi.fn();
  const redirectToProvider = vi.fn();
  const socialSignIn = socialSignInMachine.provide({
    actors: {
      authorize: fromPromise(({ input }: { input: { provider: PopupProvider } }) => authorizations.handler(input)),
      exchangeToken: fromPromise(({ input }: { input: { provider: PopupProvider; token: string } }) => exchanges.handler(input)),
      checkRedirectProvider: fromPromise(() => checks.handler()),
    },
    actions: { saveReturnRoute: (_, returnTo) => saveReturnRoute(returnTo), redirectToProvider },
  });
  const app = renderApp('/login?from=%2Fprofile', { flows: { socialSignIn } });
  return { ...app, authorizations, exchanges, checks, saveReturnRoute, redirectToProvider };
}
type Harness = ReturnType<typeof harness>;

async function perform(event: AnyEventObject, page: Harness) {
  switch (event.type) {
    case 'popup.requested':
      await userEvent.click(screen.getByRole('button', { name: buttonNames[event.provider as PopupProvider] }));
      return;
    case 'redirect.requested':
      await userEvent.click(screen.getByRole('button', { name: buttonNames.facebook }));
      return;
    case 'xstate.done.actor.authorize':
      page.authorizations.last().settle.resolve(event.output);
      return;
    case 'xstate.error.actor.authorize':
      page.authorizations.last().settle.reject(event.error);
      return;
    case 'xstate.done.actor.exchangeToken':
      page.exchanges.last().settle.resolve(event.label === 'new member' ? newMember() : event.output);
      return;
    case 'xstate.error.actor.exchangeToken':
      page.exchanges.last().settle.reject(event.error);
      return;
    case 'xstate.done.actor.checkRedirectProvider':
      page.checks.last().settle.resolve();
      return;
    case 'xstate.error.actor.checkRedirectProvider':
      page.checks.last().settle.reject(event.error);
      return;
    default:
      throw new Error(`No way to perform ${event.type}`);
  }
}

async function expectScreen(state: AnyMachineSnapshot, event: AnyEventObject, page: Harness) {
  if (state.matches('signedIn')) {
    const target = event.label === 'new member' ? '/bmi' : '/profile';
    await waitFor(() => expect(page.router.state.location.pathname).toBe(target));
    expect(localStorage.getItem(SESSION_KEYS.jwt)).toBe(event.label === 'new member' ? 'jwt-new' : 'jwt-returning');
    expect(page.exchanges.last().input).toEqual({ provider: state.context.provider, token: 'id-token-from-provider' });
    return;
  }
  await screen.findByRole('heading', { name: 'Log In' });
  const busy = state.hasTag('busy');
  const active = busy ? (state.context.provider ?? 'facebook') : null;
  await waitFor(() => {
    for (const [provider, name] of Object.entries(buttonNames)) {
      const button = screen.getByRole('button', { name: provider === active ? 'Connecting...' : name }) as HTMLButtonElement;
      expect(button.disabled).toBe(busy);
    }
  });
  const alert = screen.queryByRole('alert');
  expect(alert?.textContent ?? null).toBe(state.context.error);
  if (state.matches('leaving')) {
    expect(page.saveReturnRoute).toHaveBeenCalledWith('/profile');
    expect(page.redirectToProvider).toHaveBeenCalledTimes(1);
  } else {
    expect(page.redirectToProvider).not.toHaveBeenCalled();
  }
}

describe('socialSignIn machine: model-based paths replayed against the Log In page', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fakeServer().fetch);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('reaches every state and takes every event', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.flatMap(({ state }) => state._nodes.map((node: { id: string }) => node.id))));
    expect(leafStateIds(socialSignInMachine).filter((id) => !reached.has(id))).toEqual([]);
    const taken = new Set(paths.flatMap((path) => path.steps.slice(1).map((step) => describeEvent(step.event))));
    expect(events.map(describeEvent).filter((name) => !taken.has(name))).toEqual([]);
  });

  it.each(paths.map((path): [string, ModelPath] => [describePath(path, describeEvent), path]))('%s', async (_name, path) => {
    const page = harness();
    await expectScreen(path.steps[0].state, path.steps[0].event, page);
    for (const step of path.steps.slice(1)) {
      await perform(step.event, page);
      await expectScreen(step.state, step.event, page);
    }
  });
});

describe('provider messages (SPEC §8)', () => {
  it('uses the spec wording', () => {
    expect(providerMessages.googleCancelled).toBe('Google Sign-In was canceled or failed');
    expect(providerMessages.appleNoToken).toBe('Apple Sign-In failed: No ID token received');
    expect(providerMessages.appleCancelled).toBe('Apple Sign-In was canceled or failed');
  });
});
