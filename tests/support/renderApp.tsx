import { onTestFinished } from 'vitest';
import { render } from '@testing-library/react';
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import { fromPromise } from 'xstate';
import type { AuthResponse, LoginPayload, RegisterPayload, RegisterResponse } from '../../server/src/contract/auth';
import type { User } from '../../server/src/contract/users';
import type { LoginResponse, TwoFactorLoginPayload } from '../../server/src/contract/twoFactor';
import { passwordLogInMachine } from '../../machines/passwordLogIn.machine';
import { signUpMachine } from '../../machines/signUp.machine';
import { twoFactorLogInMachine } from '../../machines/twoFactorLogIn.machine';
import { createApp } from '../../src/app/createApp';
import { prepareHydration } from '../../src/app/hydration';
import type { Flows } from '../../src/hooks/flows';
import type { FlowInspector } from '../../src/app/router';
import type { PrerenderedData } from '../../src/prerender/prerenderedData';
import { deferredCalls } from './deferred';

export const sampleUser: User = {
  id: 7,
  documentId: 'doc7',
  username: 'ribeye',
  email: 'ribeye@example.com',
  provider: 'local',
  confirmed: true,
  blocked: false,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  publishedAt: '2025-01-01T00:00:00.000Z',
  diet_preference: 'Carnivore',
  stripeCustomerId: null,
  ingredients: [],
  goal_weight: null,
  goal_reminder: 'daily',
  personal_goal_note: null,
  bmi: null,
  profile_picture: null,
};

/**
 * A fake same-origin server for calls the router makes outside the auth machine
 * (the profile loader). `refuseTokens` makes it answer 401 like an expired JWT ('expired'), or like a
 * token whose session was signed out from another device ('signedOut').
 */
export function fakeServer() {
  const server = {
    refuseTokens: false as false | 'expired' | 'signedOut',
    requests: [] as string[],
    fetch: async (input: RequestInfo | URL): Promise<Response> => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
      server.requests.push(url.pathname + url.search);
      if (url.pathname === '/api/users/me') {
        if (server.refuseTokens === 'signedOut') {
          return Response.json(
            {
              data: null,
              error: {
                status: 401,
                name: 'UnauthorizedError',
                message: 'You were signed out from another device.',
                details: { reason: 'session-signed-out' },
              },
            },
            { status: 401 },
          );
        }
        return server.refuseTokens
          ? Response.json(
              { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials' } },
              { status: 401 },
            )
          : Response.json(sampleUser);
      }
      return Response.json({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found' } }, { status: 404 });
    },
  };
  return server;
}

function createTestApp(
  path: string,
  { flows, prerendered, inspect }: { flows?: Partial<Flows>; prerendered?: PrerenderedData; inspect?: FlowInspector },
) {
  const registerCalls = deferredCalls<RegisterPayload, RegisterResponse>();
  // The password and the second step's code: one list, in the order the member sent them.
  const loginCalls = deferredCalls<LoginPayload | TwoFactorLoginPayload, LoginResponse>();
  const signUp = signUpMachine.provide({
    actors: { register: fromPromise<RegisterResponse, RegisterPayload>(({ input }) => registerCalls.handler(input)) },
  });
  const secondFactor = twoFactorLogInMachine.provide({
    // The second step's call answers a session (the doubles settle it with one).
    actors: {
      loginWithCode: fromPromise(async ({ input }: { input: TwoFactorLoginPayload }) => (await loginCalls.handler(input)) as AuthResponse),
    },
  });
  const passwordLogIn = passwordLogInMachine.provide({
    actors: { login: fromPromise<LoginResponse, LoginPayload>(({ input }) => loginCalls.handler(input)), secondFactor },
  });
  const { auth, router } = createApp({
    history: createMemoryHistory({ initialEntries: [path] }),
    // The auth API's doubles, unless a test brings its own.
    flows: { signUp, passwordLogIn, ...flows },
    prerendered,
    inspect,
  });
  // A finished test's app must not react to the next test's storage events or answer its 401s.
  onTestFinished(async () => {
    auth.stop();
    // A navigation still loading would commit after the file's window is gone (an unhandled error).
    for (let waited = 0; waited < 2000 && (router.state.status !== 'idle' || router.state.isLoading); waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
  });
  return { auth, router, registerCalls, loginCalls };
}

/** Renders the real app at `path` with deferred doubles for the auth API (sign-up, log-in and its second step). */
export function renderApp(path = '/', options: { flows?: Partial<Flows>; inspect?: FlowInspector } = {}) {
  const app = createTestApp(path, options);
  const view = render(<RouterProvider router={app.router} />);
  return { ...view, ...app };
}

/**
 * Hydrates the real app over the HTML the server prerendered for `path` (src/entry-server.tsx), as
 * the browser does. `mismatches` collects what React could not hydrate (it should stay empty).
 */
export async function hydrateApp(
  path: string,
  page: { html: string; data: PrerenderedData },
  options: { flows?: Partial<Flows>; inspect?: FlowInspector } = {},
) {
  const app = createTestApp(path, { ...options, prerendered: page.data });
  const container = document.body.appendChild(document.createElement('div'));
  container.innerHTML = page.html;
  if (!(await prepareHydration(app.router, page.data))) throw new Error(`${path} is not the page prerendered (${page.data.path})`);
  const mismatches: unknown[] = [];
  const view = render(<RouterProvider router={app.router} />, {
    container,
    hydrate: true,
    onRecoverableError: (error) => mismatches.push(error),
  });
  return { ...view, ...app, mismatches };
}
