import { useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { AuthActorRef } from '../../machines/authSession.machine';
import type { PrerenderedData } from '../prerender/prerenderedData';
import type { Flows } from './flows';
import { useHydrated } from './useHydrated';

/** The auth actor that travels in the router context. */
export function useAuthActor(): AuthActorRef {
  return useRouteContext({ from: '__root__', select: (context) => context.auth });
}

/** Logged in, as far as the page shows: prerendered HTML is for visitors, so not before hydration. */
export function useIsLoggedIn(): boolean {
  const loggedIn = useSelector(useAuthActor(), (snapshot) => snapshot.matches('loggedIn'));
  return useHydrated() && loggedIn;
}

export function useFlows(): Flows {
  return useRouteContext({ from: '__root__', select: (context) => context.flows });
}

/** What the server rendered this page with (legal text), when it was prerendered. */
export function usePrerendered(): PrerenderedData | undefined {
  return useRouteContext({ from: '__root__', select: (context) => context.prerendered });
}
