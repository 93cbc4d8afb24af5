import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SESSION_KEYS } from '../../machines/services/session';
import { fakeServer, renderApp } from '../support/renderApp';

/** The members' pages share one pathless layout route (src/app/router.tsx): its guard and its member load. */
function signedIn() {
  const server = fakeServer();
  vi.stubGlobal('fetch', server.fetch);
  localStorage.setItem(SESSION_KEYS.jwt, 'member-token');
  localStorage.setItem(SESSION_KEYS.userId, '7');
  const memberLoads = () => server.requests.filter((request) => request.startsWith('/api/users/me')).length;
  return { server, memberLoads };
}

describe('the members’ layout route', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('sends a visitor to /login with the whole attempted path as from, replacing the entry', async () => {
    const app = renderApp('/profile?tab=goals');
    await screen.findByRole('heading', { name: 'Log In' });
    expect(app.router.state.location.pathname).toBe('/login');
    expect(app.router.state.location.search).toEqual({ from: '/profile?tab=goals' });
    expect(app.router.history.length).toBe(1);
  });

  it('keeps the URLs: /profile and /bmi are its children, each its own page', { timeout: 40_000 }, async () => {
    const { memberLoads } = signedIn();
    const app = renderApp('/bmi');
    // The pages' chunks load on first use: slow when the machine is busy.
    await screen.findByRole('heading', { name: 'Welcome to Carnivo' }, { timeout: 15_000 });
    expect(app.router.state.matches.map((match) => match.routeId)).toEqual(['__root__', '/_member', '/_member/bmi']);
    expect(memberLoads()).toBe(1);

    // Entering the other member page loads the member again (it may have changed); a tab switch does not.
    await userEvent.click(screen.getByRole('link', { name: 'Skip for now' }));
    await screen.findByRole('heading', { name: 'Profile', level: 1 }, { timeout: 15_000 });
    expect(app.router.state.location.pathname).toBe('/profile');
    await waitFor(() => expect(memberLoads()).toBe(2));
    await app.router.navigate({ to: '/profile', search: { tab: 'goals' } });
    expect(app.router.state.location.search).toEqual({ tab: 'goals' });
    expect(memberLoads()).toBe(2);
  });

  it(
    'draws /profile entered from /bmi only once the member is loaded again (never the member from before)',
    { timeout: 40_000 },
    async () => {
      const { server } = signedIn();
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let loads = 0;
      vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
        const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
        if (url.pathname === '/api/users/me' && ++loads === 2) await held;
        return server.fetch(input);
      });
      // The profile page's chunk is ready, so only the member's load can hold the page back.
      await import('../../src/app/ProfileRoute');
      renderApp('/bmi');
      await screen.findByRole('heading', { name: 'Welcome to Carnivo' }, { timeout: 15_000 });
      await userEvent.click(screen.getByRole('link', { name: 'Skip for now' }));
      await waitFor(() => expect(loads).toBe(2));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(screen.queryByRole('heading', { name: 'Profile', level: 1 })).toBeNull();
      release();
      await screen.findByRole('heading', { name: 'Profile', level: 1 }, { timeout: 15_000 });
    },
  );
});
