// @ts-nocheck
import { createActor, type AnyEventObject, type InspectionEvent } from 'xstate';
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
