import { useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';

/** The pages whose route loader holds the member (GET /api/users/me). */
export type MemberRoute = '/profile' | '/bmi';

/**
 * The `reloadProfile` a view gives its machine: reloads the page's member after a change, so it shows
 * what was saved. Settles once the reloaded member is shown (an action ignores that): `sync` makes the
 * router wait for the loader, which it otherwise runs in the background, settling at once.
 */
export function useReloadProfile(routeId: MemberRoute = '/profile') {
  const router = useRouter();
  return useCallback(() => router.invalidate({ filter: (match) => match.routeId === routeId, sync: true }), [router, routeId]);
}
