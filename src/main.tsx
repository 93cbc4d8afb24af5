import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from '@tanstack/react-router';
import { createApp } from './app/createApp';
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

void loadInspector().then((inspect) => {
  const { router } = createApp({ inspect });
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
});
