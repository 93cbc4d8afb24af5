import { createActor, fromCallback } from 'xstate';
import type { RouterHistory } from '@tanstack/react-router';
import { authSessionMachine, type AuthEvent } from '../../machines/authSession.machine';
import { configureApiClient } from '../../machines/services/sessionHooks';
import { clearStoredSession, readStoredSession, watchStoredSession, writeStoredSession } from '../hooks/browserSessionStore';
import type { PrerenderedData } from '../prerender/prerenderedData';
import type { Flows } from '../hooks/flows';
import { navigateTo } from '../hooks/navigation';
import { createAppRouter, type AppRouter, type FlowInspector } from './router';

export type AppOptions = {
  history?: RouterHistory;
  /** Replaces page-level flow machines — tests pass machines provided with doubles. */
  flows?: Flows;
  inspect?: FlowInspector;
  /** What the server rendered the page with, when the HTML was prerendered. */
  prerendered?: PrerenderedData;
};

/** Wires the auth machine (the session only: the sign-in flows come with their pages) to the browser and builds the router. */
export function createApp({ history, flows, inspect, prerendered }: AppOptions = {}) {
  let router: AppRouter | undefined;

  const machine = authSessionMachine.provide({
    actions: {
      persistSession: (_, session) => writeStoredSession(session),
      forgetSession: () => clearStoredSession(),
      navigate: (_, request) => {
        if (router) navigateTo(router, request);
      },
      revalidateRoutes: () => {
        void router?.invalidate();
      },
    },
    actors: {
      watchSession: fromCallback<AuthEvent>(({ sendBack }) =>
        watchStoredSession((session) => sendBack({ type: 'session.changed', session })),
      ),
      watchLocation: fromCallback<AuthEvent>(({ sendBack }) =>
        router!.subscribe('onResolved', ({ toLocation, pathChanged }) => {
          if (pathChanged) sendBack({ type: 'location.changed', pathname: toLocation.pathname });
        }),
      ),
    },
  });

  const auth = createActor(machine, { input: { session: readStoredSession() }, inspect });
  configureApiClient({
    getToken: () => readStoredSession()?.jwt ?? null,
    onUnauthorized: (why) => auth.send({ type: why === 'signedOut' ? 'session.signedOutElsewhere' : 'session.expired' }),
  });
  router = createAppRouter({ auth, flows: flows ?? {}, history, prerendered, inspect });
  auth.start();
  return { auth, router };
}
