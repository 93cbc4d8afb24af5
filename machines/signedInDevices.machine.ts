import { assertEvent, assign, fromPromise, sendTo, setup } from 'xstate';
import type { MemberSession } from '../server/src/contract/sessions';
import { errorMessage } from './services/errors';
import { SESSIONS_LOAD_FALLBACK, SESSION_SIGN_OUT_FALLBACK, loadSessions, signOutSession } from './services/sessions';
import type { AuthActorRef } from './authSession.machine';
import { SUCCESS_NOTICE_MS, successNotice } from './shared/notice';

/** Shown for SUCCESS_NOTICE_MS once another device is signed out (and gone from the list). */
export const SIGNED_OUT_NOTICE = 'Signed out.';

export type SignedInDevicesEvent = { type: 'devices.reloadRequested' } | { type: 'device.signOutRequested'; id: string };

type Context = {
  auth: AuthActorRef;
  sessions: MemberSession[];
  /** The session being signed out. */
  signingOut: MemberSession | null;
  error: string | null;
};

/**
 * Security → Signed-in devices: loads the member's sessions and signs one out at a time, without a
 * confirmation (signing in again undoes it). Signing out this device ends the session here too, like
 * the header's Log Out; another device disappears from the list, with "Signed out." for 3 s.
 */
export const signedInDevicesMachine = setup({
  types: {
    context: {} as Context,
    events: {} as SignedInDevicesEvent,
    input: {} as { auth: AuthActorRef },
  },
  actors: {
    loadSessions: fromPromise<MemberSession[]>(({ signal }) => loadSessions({ signal })),
    signOutSession: fromPromise<void, { id: string }>(({ input, signal }) => signOutSession(input.id, { signal })),
  },
  delays: {
    successMessage: SUCCESS_NOTICE_MS,
  },
  guards: {
    isListed: ({ context, event }) => {
      assertEvent(event, 'device.signOutRequested');
      return context.sessions.some((session) => session.id === event.id);
    },
    // Set on the way in (pickSession); only signingOut asks.
    wasThisDevice: ({ context }) => context.signingOut!.current,
  },
  actions: {
    pickSession: assign({
      signingOut: ({ context, event }) => {
        assertEvent(event, 'device.signOutRequested');
        return context.sessions.find((session) => session.id === event.id) ?? null;
      },
      error: null,
    }),
  },
}).createMachine({
  id: 'signedInDevices',
  context: ({ input }) => ({ auth: input.auth, sessions: [], signingOut: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'loadSessions',
        src: 'loadSessions',
        onDone: { target: 'ready', actions: assign({ sessions: ({ event }) => event.output }) },
        onError: { target: 'loadFailure', actions: assign({ error: ({ event }) => errorMessage(event.error, SESSIONS_LOAD_FALLBACK) }) },
      },
    },
    loadFailure: {
      on: { 'devices.reloadRequested': { target: 'loading', actions: assign({ error: null }) } },
    },
    ready: {
      on: { 'device.signOutRequested': { guard: 'isListed', target: 'signingOut', actions: 'pickSession' } },
    },
    /** Another device is signed out: "Signed out." for a while; the next one can be signed out meanwhile. */
    signedOut: {
      ...successNotice('ready'),
      on: { 'device.signOutRequested': { guard: 'isListed', target: 'signingOut', actions: 'pickSession' } },
    },
    signingOut: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'signOutSession',
        src: 'signOutSession',
        input: ({ context }) => ({ id: context.signingOut!.id }),
        onDone: [
          { guard: 'wasThisDevice', target: 'signedOutHere' },
          {
            target: 'signedOut',
            actions: assign({
              sessions: ({ context }) => context.sessions.filter((session) => session.id !== context.signingOut!.id),
              signingOut: null,
            }),
          },
        ],
        onError: {
          target: 'signOutFailure',
          actions: assign({ error: ({ event }) => errorMessage(event.error, SESSION_SIGN_OUT_FALLBACK), signingOut: null }),
        },
      },
    },
    signOutFailure: {
      on: { 'device.signOutRequested': { guard: 'isListed', target: 'signingOut', actions: 'pickSession' } },
    },
    signedOutHere: {
      type: 'final',
      entry: sendTo(({ context }) => context.auth, { type: 'logout' }),
    },
  },
});
