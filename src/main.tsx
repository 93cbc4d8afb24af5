import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from '@tanstack/react-router';
import { createApp } from './app/createApp';
import { prepareHydration } from './app/hydration';
import { PRERENDERED_DATA_ID, type PrerenderedData } from './prerender/prerenderedData';
import './styles/app.css';

/**
 * The Stately inspector is opt-in and development-only: start Vite with
 * VITE_XSTATE_INSPECT=true. The branch is dropped from production builds.
 */
async function loadInspector() {
  if (import.meta.env.DEV && import.meta.env.VITE_XSTATE_INSPECT === 'true') {
    const { createBrowserInspector } = await import('@statelyai/inspect');
    return createBrowserInspector().inspect;
  }
  return undefined;
}

/** The data a prerendered page was rendered with (see src/entry-server.tsx), or undefined. */
function readPrerenderedData(): PrerenderedData | undefined {
  const script = document.getElementById(PRERENDERED_DATA_ID);
  if (!script?.textContent) return undefined;
  try {
    return JSON.parse(script.textContent) as PrerenderedData;
  } catch {
    return undefined;
  }
}

async function start() {
  // Building the app is a task of its own, after the one that evaluated the bundle: two short tasks, not one long one.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const inspect = await loadInspector();
  const prerendered = readPrerenderedData();
  const { router } = createApp({ inspect, prerendered });
  const container = document.getElementById('root')!;
  const app = (
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>
  );

  if (prerendered && container.hasChildNodes() && (await prepareHydration(router, prerendered))) {
    hydrateRoot(container, app, {
      onRecoverableError: (error, info) =>
        console.error('Carnivo: the prerendered page did not hydrate cleanly:', error, info.componentStack),
    });
    return;
  }
  const root = createRoot(container);
  if (prerendered || !container.hasChildNodes()) {
    root.render(app);
    return;
  }
  // What the profile shell painted (src/entry-profile-shell.ts) stays until the page is ready to take
  // its place; then rendered in slices (a transition), so that the page keeps answering meanwhile.
  await router.load();
  startTransition(() => root.render(app));
}

void start();
