// @ts-nocheck
import type { AppRouter } from './router';
import type { PrerenderedData } from '../prerender/prerenderedData';

/**
 * Gets the router ready to hydrate a prerendered page: resolves the route (loading its chunk) so the
 * first render is the one the server made, then marks the router as hydrating as TanStack's own SSR
 * client does (it then renders the server's tree and does not load the route again). False when the
 * page is not the one prerendered (a member on /login is sent on): render it afresh instead.
 */
export async function prepareHydration(router: AppRouter, prerendered: PrerenderedData): Promise<boolean> {
  await router.load();
  if (router.state.location.pathname !== prerendered.path) return false;
  router.ssr = { manifest: undefined };
  return true;
}
