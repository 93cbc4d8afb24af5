import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { lazyPage } from '../../src/hooks/lazyPage';
import { RouteErrorView } from '../../src/components/RouteErrorView';

describe('lazy page chunks', () => {
  it('show an error with Retry when a chunk fails, and load on Retry', async () => {
    let attempts = 0;
    const importer = async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('Network error while loading this page.');
      return { LatePage: () => <h1>Loaded at last</h1> };
    };
    const rootRoute = createRootRoute();
    const pageRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: lazyPage(importer, 'LatePage') });
    const router = createRouter({
      routeTree: rootRoute.addChildren([pageRoute]),
      history: createMemoryHistory({ initialEntries: ['/'] }),
      defaultErrorComponent: RouteErrorView,
    });
    render(<RouterProvider router={router} />);

    expect((await screen.findByRole('alert')).textContent).toBe('Network error while loading this page.');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Loaded at last' })).toBeTruthy();
    expect(attempts).toBe(2);
  });
});
