import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';

/** The pathless layout route of the members' pages (src/app/router.tsx): its loader holds the member (GET /api/users/me). */
const MEMBER_ROUTE_ID = '/_member';
const memberRoute = getRouteApi(MEMBER_ROUTE_ID);

/** The signed-in member, as the members' layout route loaded it. */
export function useMember() {
  return memberRoute.useLoaderData();
}

/**
 * The `reloadProfile` a view gives its machine: reloads the member after a change, so the page shows
 * what was saved. Settles once the reloaded member is shown (an action ignores that): `sync` makes the
 * router wait for the loader, which it otherwise runs in the background, settling at once.
 */
export function useReloadProfile() {
  const router = useRouter();
  return useCallback(() => router.invalidate({ filter: (match) => match.routeId === MEMBER_ROUTE_ID, sync: true }), [router]);
}
