import { expect, vi } from 'vitest';
import { createActor, type AnyActorRef, type AnyEventObject, type InspectionEvent } from 'xstate';
import { authSessionMachine } from '../../../machines/authSession.machine';

/** Lets settled promises reach the machine (an invoked promise actor reports on a later tick). */
export function nextTick(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * A real auth actor (signed in as user 7) for flows that report to the session. Pass `inspect` to the actor
 * under test: it records the events that actor sends the session, so a test checks what a flow told the
 * session without depending on how the session reacts.
 */
export function recordingAuth() {
  const auth = createActor(authSessionMachine, { input: { session: { jwt: 'old-token', userId: '7' } } }).start();
  const received: AnyEventObject[] = [];
  const inspect = (inspection: InspectionEvent) => {
    if (inspection.type === '@xstate.event' && inspection.actorRef === auth) received.push(inspection.event);
  };
  return { auth, inspect, received };
}

/**
 * For a machine's own actor, called through the real service: the network takes one request and never
 * answers. `sent` checks it went to `path` with `body`, and that stopping `actor` (the page going) aborts it.
 */
export function pendingNetwork() {
  const requests: { url: string; body: unknown; signal: AbortSignal | null | undefined }[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push({ url: String(input instanceof Request ? input.url : input), body: init?.body, signal: init?.signal });
    return new Promise<Response>(() => {});
  });
  return {
    async sent(actor: AnyActorRef, path: string, body: unknown) {
      await vi.waitFor(() => expect(requests).toHaveLength(1));
      expect(new URL(requests[0].url, 'http://localhost').pathname).toBe(path);
      expect(JSON.parse(String(requests[0].body))).toEqual(body);
      actor.stop();
      expect(requests[0].signal?.aborted).toBe(true);
    },
  };
}
