import { vi } from 'vitest';
import userEvent from '@testing-library/user-event';
import type { User } from '../../server/src/contract/users';
import type { Flows } from '../../src/hooks/flows';
import type { FlowInspector } from '../../src/app/router';
import { SESSION_KEYS } from '../../machines/services/session';
import { renderApp, sampleUser } from './renderApp';
import { deferred, type Deferred } from './deferred';

/**
 * The profile page with a fake same-origin server for GET /api/users/me (the route
 * loader) and fake timers, so the spec's 3000 ms messages can be stepped through.
 * With `server.holdReloads`, every later GET /api/users/me waits in `server.heldReloads` until the test
 * releases it, and then answers the user as it is at that moment.
 */
export function renderProfile(tab: string, flows: Partial<Flows>, user: Partial<User> = {}, inspect?: FlowInspector) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  // Testing Library drives fake timers only when it sees Jest's API; give it vitest's.
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
  const server = { user: { ...sampleUser, ...user } as User, profileLoads: 0, holdReloads: false, heldReloads: [] as Deferred<void>[] };
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    if (url.pathname === '/api/users/me') {
      server.profileLoads += 1;
      if (server.holdReloads && server.profileLoads > 1) {
        const held = deferred<void>();
        server.heldReloads.push(held);
        await held.promise;
      }
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
