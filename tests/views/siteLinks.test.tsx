import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryHistory, createRootRoute, createRoute, createRouter, useRouter } from '@tanstack/react-router';
import { openSiteLink } from '../../src/features/legal/siteLinks';

/** A text with links, as the legal pages show it: one click handler on the container (openSiteLink). */
function Text() {
  const router = useRouter();
  return (
    <div onClick={(event) => openSiteLink(event, router)}>
      <a href="/delete-profile">
        <strong>Delete Account</strong>
      </a>
      <a href="https://example.com/away">Away</a>
      <a href="//evil.example/x">Other host</a>
      <a href="/uploads/plan.pdf">A file</a>
      <a href="/delete-profile" target="_blank">
        New tab
      </a>
    </div>
  );
}

function renderText() {
  const rootRoute = createRootRoute();
  const home = createRoute({ getParentRoute: () => rootRoute, path: '/', component: Text });
  const deleteProfile = createRoute({ getParentRoute: () => rootRoute, path: '/delete-profile', component: () => <h1>Delete</h1> });
  const router = createRouter({
    routeTree: rootRoute.addChildren([home, deleteProfile]),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  render(<RouterProvider router={router} />);
  return router;
}

describe('openSiteLink: links to the site open in the app', () => {
  it('opens a path of the site (clicked on the text inside the link) without a page load', async () => {
    const router = renderText();
    const click = fireEvent.click(await screen.findByText('Delete Account'));
    expect(click).toBe(false); // the browser's own navigation was prevented
    await screen.findByRole('heading', { name: 'Delete' });
    expect(router.state.location.pathname).toBe('/delete-profile');
  });

  it("leaves other hosts' links, files, new tabs and modified clicks to the browser", async () => {
    const router = renderText();
    expect(fireEvent.click(await screen.findByText('Away'))).toBe(true);
    expect(fireEvent.click(screen.getByText('Other host'))).toBe(true);
    expect(fireEvent.click(screen.getByText('A file'))).toBe(true);
    expect(fireEvent.click(screen.getByText('New tab'))).toBe(true);
    expect(fireEvent.click(screen.getByText('Delete Account'), { ctrlKey: true })).toBe(true);
    expect(fireEvent.click(screen.getByText('Delete Account'), { button: 1 })).toBe(true);
    expect(router.state.location.pathname).toBe('/');
  });
});
