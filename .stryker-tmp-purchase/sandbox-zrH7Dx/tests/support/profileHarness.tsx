// @ts-nocheck
import { vi } from 'vitest';
import userEvent from '@testing-library/user-event';
import type { User } from '../../server/src/contract/users';
import type { Flows } from '../../src/app/flows';
import type { FlowInspector } from '../../src/app/router';
import { SESSION_KEYS } from '../../src/auth/session';
import { renderApp, sampleUser } from './renderApp';

/**
 * The profile page with a fake same-origin server for GET /api/users/me (the route
 * loader) and fake timers, so the spec's 3000 ms messages can be stepped through.
 */
export function renderProfile(tab: string, flows: Partial<Flows>, user: Partial<User> = {}, inspect?: FlowInspector) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  // Testing Library drives fake timers only when it sees Jest's API; give it vitest's.
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
  const server = { user: { ...sampleUser, ...user } as User, profileLoads: 0 };
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    if (url.pathname === '/api/users/me') {
      server.profileLoads += 1;
      return Response.json(server.user);
    }
    return Response.json({ error: { message: 'Not Found' } }, { status: 404 });
  });
  localStorage.setItem(SESSION_KEYS.jwt, 'member-token');
  localStorage.setItem(SESSION_KEYS.userId, String(server.user.id));
  const user$ = userEvent.setup({ delay: null });
  const app = renderApp(`/profile?tab=${tab}`, { flows, inspect });
  return { ...app, server, user: user$ };
}

export function restoreProfileHarness() {
  vi.useRealTimers();
  vi.unstubAllGlobals();
}
