import { render } from '@testing-library/react';
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import { fromPromise } from 'xstate';
import type { LoginPayload, RegisterPayload } from '../../src/api/auth';
import type { AuthResponse, User } from '../../src/api/types';
import { createApp } from '../../src/app/createApp';
import type { Flows } from '../../src/app/flows';
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
 * (the profile loader). `refuseTokens` makes it answer 401 like an expired JWT.
 */
export function fakeServer() {
  const server = {
    refuseTokens: false,
    requests: [] as string[],
    fetch: async (input: RequestInfo | URL): Promise<Response> => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
      server.requests.push(url.pathname + url.search);
      if (url.pathname === '/api/users/me') {
        return server.refuseTokens
          ? Response.json({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials' } }, { status: 401 })
          : Response.json(sampleUser);
      }
      return Response.json({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found' } }, { status: 404 });
    },
  };
  return server;
}

/** Renders the real app at `path` with deferred doubles for the auth API. */
export function renderApp(path = '/', { flows }: { flows?: Partial<Flows> } = {}) {
  const registerCalls = deferredCalls<RegisterPayload, AuthResponse>();
  const loginCalls = deferredCalls<LoginPayload, AuthResponse>();
  const { auth, router } = createApp({
    history: createMemoryHistory({ initialEntries: [path] }),
    flows,
    actors: {
      register: fromPromise<AuthResponse, RegisterPayload>(({ input }) => registerCalls.handler(input)),
      login: fromPromise<AuthResponse, LoginPayload>(({ input }) => loginCalls.handler(input)),
    },
  });
  const view = render(<RouterProvider router={router} />);
  return { ...view, auth, router, registerCalls, loginCalls };
}
