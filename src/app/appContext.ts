import { useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { AuthActorRef } from '../../machines/authSession.machine';
import type { Flows } from './flows';

/** The auth actor that travels in the router context. */
export function useAuthActor(): AuthActorRef {
  return useRouteContext({ from: '__root__', select: (context) => context.auth });
}

export function useIsLoggedIn(): boolean {
  return useSelector(useAuthActor(), (snapshot) => snapshot.matches('loggedIn'));
}

export function useFlows(): Flows {
  return useRouteContext({ from: '__root__', select: (context) => context.flows });
}
