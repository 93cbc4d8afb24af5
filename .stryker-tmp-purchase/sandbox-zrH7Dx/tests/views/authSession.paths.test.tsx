// @ts-nocheck
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { authMessages, authSessionMachine } from '../../machines/authSession.machine';
import { ApiError } from '../../src/api/errors';
import { SESSION_KEYS } from '../../src/auth/session';
import { describePath, leafStateIds, transitionCoveringPaths, type ModelPath } from '../support/modelPaths';
import { fakeServer, renderApp } from '../support/renderApp';

const authResponse = { jwt: 'jwt-from-server', user: { id: 7, createdAt: '2025-01-01T00:00:00.000Z' } };
const otherTabSession = { jwt: 'jwt-other-tab', userId: '9' };

const events: AnyEventObject[] = [
  { type: 'signup.submitted', username: '', email: '', password: '' },
  { type: 'signup.submitted', username: 'ribeye', email: 'not-an-email', password: 'secret123' },
  { type: 'signup.submitted', username: 'rib@eye', email: 'ribeye@example.com', password: 'secret123' },
  { type: 'signup.submitted', username: 'ribeye', email: 'ribeye@example.com', password: 'secret123' },
  { type: 'xstate.done.actor.register', output: authResponse },
  // Under EMAIL_CONFIRMATION Strapi answers with the user only.
  { type: 'xstate.done.actor.register', output: { user: authResponse.user } },
  { type: 'xstate.error.actor.register', error: new ApiError('Email or Username are already taken', 400) },
  { type: 'login.submitted', identifier: 'ribeye', password: 'secret123', returnTo: '/' },
  { type: 'xstate.done.actor.login', output: authResponse },
  { type: 'xstate.error.actor.login', error: new ApiError('Invalid identifier or password', 400) },
  { type: 'location.changed', pathname: '/' },
  { type: 'login.requested', notice: 'Social login failed' },
  { type: 'logout' },
  { type: 'session.expired' },
  { type: 'account.deleted' },
  { type: 'session.changed', session: null },
  { type: 'session.changed', session: otherTabSession },
  { type: 'session.started', response: { jwt: 'jwt-social', user: { id: 12, createdAt: '2025-01-01T00:00:00.000Z' } }, returnTo: '/' },
  { type: 'session.tokenRenewed', jwt: 'jwt-after-password-change' },
  { type: 'session.tokenRenewed', jwt: null },
  { type: 'session.revokedEverywhere' },
  { type: 'password.reset' },
];

function describeEvent(event: AnyEventObject): string {
  if (event.type === 'signup.submitted') {
    if (!event.username) return 'signup.submitted(blank)';
    if (!event.email.includes('@')) return 'signup.submitted(bad email)';
    return event.username.includes('@') ? 'signup.submitted(bad username)' : 'signup.submitted(valid)';
  }
  if (event.type === 'session.tokenRenewed') return event.jwt ? 'session.tokenRenewed(new token)' : 'session.tokenRenewed(none)';
  if (event.type === 'xstate.done.actor.register') return event.output.jwt ? 'register.done(session)' : 'register.done(confirm email)';
  if (event.type === 'session.changed') return event.session ? 'session.changed(logged in)' : 'session.changed(logged out)';
  return event.type;
}

// One replay per transition from each screen: which token is stored, the form state and the message showing.
const paths = transitionCoveringPaths(authSessionMachine, {
  events,
  input: { session: null },
  transitionKey: (state, event) =>
    JSON.stringify([state.value, state.context.session?.jwt ?? null, state.context.error === null, state.context.notice, describeEvent(event)]),
});

type App = ReturnType<typeof renderApp>;
type Server = ReturnType<typeof fakeServer>;

function currentPath(app: App): string {
  return app.router.state.location.pathname;
}

async function openPage(app: App, linkName: 'Log In' | 'Sign Up' | 'Home' | 'Profile', pathname: string) {
  const nav = screen.getByRole('navigation', { name: 'Main' });
  await userEvent.click(within(nav).getByRole('link', { name: linkName }));
  await waitFor(() => expect(currentPath(app)).toBe(pathname));
}

async function fill(label: string, value: string) {
  const input = await screen.findByLabelText(label, { selector: 'input' });
  await userEvent.clear(input);
  if (value) await userEvent.type(input, value);
}

function setOtherTabStorage(session: { jwt: string; userId: string } | null) {
  if (session) {
    localStorage.setItem(SESSION_KEYS.jwt, session.jwt);
    localStorage.setItem(SESSION_KEYS.userId, session.userId);
  } else {
    localStorage.removeItem(SESSION_KEYS.jwt);
    localStorage.removeItem(SESSION_KEYS.userId);
  }
  window.dispatchEvent(new StorageEvent('storage', { key: SESSION_KEYS.jwt }));
}

/** Performs one model event the way a person (or another tab, or the server) causes it. */
async function perform(event: AnyEventObject, app: App, server: Server) {
  switch (event.type) {
    case 'signup.submitted': {
      if (currentPath(app) !== '/signup') await openPage(app, 'Sign Up', '/signup');
      await fill('Username', event.username);
      await fill('Email', event.email);
      await fill('Password', event.password);
      await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
      return;
    }
    case 'login.submitted': {
      if (currentPath(app) !== '/login') await openPage(app, 'Log In', '/login');
      await fill('Email or Username', event.identifier);
      await fill('Password', event.password);
      await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
      return;
    }
    case 'xstate.done.actor.register':
      app.registerCalls.last().settle.resolve(event.output);
      return;
    case 'xstate.error.actor.register':
      app.registerCalls.last().settle.reject(event.error);
      return;
    case 'xstate.done.actor.login':
      app.loginCalls.last().settle.resolve(event.output);
      return;
    case 'xstate.error.actor.login':
      app.loginCalls.last().settle.reject(event.error);
      return;
    case 'location.changed':
      // Leaving the page resets its form and drops the /login notice.
      if (currentPath(app) === event.pathname) await app.router.navigate({ to: '/features' });
      await openPage(app, 'Home', event.pathname);
      return;
    case 'login.requested':
      // Sent by the social callback and account-deletion flows, replayed in their own tests.
      app.auth.send({ type: 'login.requested', notice: event.notice });
      return;
    case 'logout':
      await userEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Log Out' }));
      return;
    case 'session.expired':
      // The server refuses the stored token on the next authenticated call.
      await openPage(app, 'Home', '/');
      server.refuseTokens = true;
      await userEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Profile' }));
      return;
    case 'account.deleted':
      // Sent by the account-deletion flow once the server has deleted the account.
      app.auth.send({ type: 'account.deleted' });
      return;
    case 'session.changed':
      setOtherTabStorage(event.session);
      return;
    case 'session.started':
      // Sent by the social sign-in and callback flows, replayed in their own tests.
      app.auth.send({ type: 'session.started', response: event.response, returnTo: event.returnTo });
      return;
    // Sent by the password change, log-out-of-all-devices and reset flows, replayed in their own tests.
    case 'session.tokenRenewed':
      app.auth.send({ type: 'session.tokenRenewed', jwt: event.jwt });
      return;
    case 'session.revokedEverywhere':
      app.auth.send({ type: 'session.revokedEverywhere' });
      return;
    case 'password.reset':
      // It comes from the Reset Password page, once the server has taken the new password.
      await app.router.navigate({ to: '/reset-password' });
      await screen.findByRole('heading', { name: 'Reset Password' });
      app.auth.send({ type: 'password.reset' });
      return;
    default:
      throw new Error(`No way to perform ${event.type}`);
  }
}

/** Asserts what a person sees in `state`, reached by `event`. */
async function expectScreen(app: App, state: AnyMachineSnapshot, event: AnyEventObject) {
  const nav = screen.getByRole('navigation', { name: 'Main' });
  if (state.matches('loggedIn')) {
    // A redirect (e.g. away from /login) may still be re-rendering the bar: wait for all of it.
    await waitFor(() => {
      expect(within(nav).getByRole('button', { name: 'Log Out' })).toBeTruthy();
      expect(within(nav).getByRole('link', { name: 'Profile' })).toBeTruthy();
    });
    expect(within(nav).queryByRole('link', { name: 'Log In' })).toBeNull();
    expect(localStorage.getItem(SESSION_KEYS.jwt)).toBe(state.context.session.jwt);
    expect(localStorage.getItem(SESSION_KEYS.userId)).toBe(state.context.session.userId);
    return;
  }

  await waitFor(() => expect(within(nav).getByRole('link', { name: 'Log In' })).toBeTruthy());
  expect(within(nav).getByRole('link', { name: 'Sign Up' })).toBeTruthy();
  expect(within(nav).queryByRole('button', { name: 'Log Out' })).toBeNull();
  expect(localStorage.getItem(SESSION_KEYS.jwt)).toBeNull();

  if (state.matches({ loggedOut: 'signingUp' })) {
    const busy = await screen.findByRole('button', { name: 'Signing Up...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
  } else if (state.matches({ loggedOut: 'loggingIn' })) {
    const busy = await screen.findByRole('button', { name: 'Logging In...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
  } else if (state.matches({ loggedOut: 'failure' })) {
    expect((await screen.findByRole('alert')).textContent).toBe(state.context.error);
  } else {
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  }

  const notices: Record<string, string> = {
    'session.expired': authMessages.sessionExpired,
    'account.deleted': authMessages.accountDeleted,
    'session.revokedEverywhere': authMessages.loggedOutEverywhere,
    'password.reset': authMessages.passwordReset,
    // The password changed but no new token came: the old one is revoked, so the session is over.
    'session.tokenRenewed': authMessages.sessionExpired,
  };
  const notice =
    event.type === 'login.requested'
      ? event.notice
      : event.type === 'xstate.done.actor.register' && !event.output.jwt
        ? authMessages.confirmEmail
        : (notices[event.type] ?? null);
  if (notice) {
    expect((await screen.findByRole('status')).textContent).toBe(notice);
    expect(currentPath(app)).toBe('/login');
  }
}

describe('authSession machine: model-based paths replayed against the app', () => {
  it('covers every state and every transition of the machine', () => {
    const reached = new Set(
      paths.flatMap((path) => path.steps.flatMap(({ state }) => state._nodes.filter((node: { type: string }) => node.type === 'atomic').map((node: { id: string }) => node.id))),
    );
    const unreachable = leafStateIds(authSessionMachine).filter((id) => !reached.has(id) && !id.endsWith('.resolving'));
    expect(unreachable).toEqual([]);
    const eventTypes = new Set(paths.flatMap((path) => path.steps.slice(1).map((step) => step.event.type)));
    expect([...eventTypes].sort()).toEqual([...new Set(events.map((event) => event.type))].sort());
  });

  let server: Server;
  beforeEach(() => {
    server = fakeServer();
    vi.stubGlobal('fetch', server.fetch);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it.each(paths.map((path): [string, ModelPath] => [describePath(path, describeEvent), path]))('%s', async (_name, path) => {
    const app = renderApp('/');
    await screen.findByRole('navigation', { name: 'Main' });
    await expectScreen(app, path.steps[0].state, path.steps[0].event);
    for (const step of path.steps.slice(1)) {
      await perform(step.event, app, server);
      await expectScreen(app, step.state, step.event);
    }
    expect(app.auth.getSnapshot().value).toEqual(path.state.value);
  });
});
