import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { MemberSession } from '../../../server/src/contract/sessions';
import { SIGNED_OUT_NOTICE, signedInDevicesMachine } from '../../../machines/signedInDevices.machine';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick, recordingAuth } from './machineTestKit';

/** API doubles, shaped like the service calls the machine's actors make; each test sets what they answer. */
const loadSessions = vi.fn<(options: { signal: AbortSignal }) => Promise<MemberSession[]>>();
const signOutSession = vi.fn<(id: string, options: { signal: AbortSignal }) => Promise<void>>();
const machine = signedInDevicesMachine.provide({
  actors: {
    loadSessions: fromPromise<MemberSession[]>(({ signal }) => loadSessions({ signal })),
    signOutSession: fromPromise<void, { id: string }>(({ input, signal }) => signOutSession(input.id, { signal })),
  },
});

const session = (id: string, current = false): MemberSession => ({
  id,
  device: 'iPhone',
  browser: 'Safari',
  createdAt: '2026-11-01T10:00:00.000Z',
  lastActiveAt: '2026-11-02T10:00:00.000Z',
  current,
});
const HERE = session('here-session-id-0001', true);
const PHONE = session('phone-session-id-0002');
const TABLET = session('tablet-session-id-003');

let load: Deferred<MemberSession[]>;
let signOut: Deferred<void>;

beforeEach(() => {
  load = deferred<MemberSession[]>();
  signOut = deferred<void>();
  loadSessions.mockReset().mockReturnValue(load.promise);
  signOutSession.mockReset().mockReturnValue(signOut.promise);
});

function start() {
  const auth = recordingAuth();
  const actor = createActor(machine, { input: { auth: auth.auth }, inspect: auth.inspect }).start();
  return { actor, auth };
}

async function loaded(sessions = [HERE, PHONE, TABLET]) {
  const started = start();
  load.resolve(sessions);
  await nextTick();
  return started;
}

describe('signedInDevices (Security → Signed-in devices)', () => {
  it('loads the sessions (busy), then lists them', async () => {
    const { actor } = start();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(loadSessions).toHaveBeenCalledWith({ signal: expect.any(AbortSignal) });
    expect(actor.getSnapshot().context).toMatchObject({ sessions: [], signingOut: null, error: null });
    load.resolve([HERE, PHONE]);
    await nextTick();
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context.sessions).toEqual([HERE, PHONE]);
  });

  it("a failed load shows the server's message or the fallback, and Try again loads anew", async () => {
    const { actor } = start();
    load.reject(new Error('Not authenticated'));
    await nextTick();
    expect(actor.getSnapshot().matches('loadFailure')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context.error).toBe('Not authenticated');

    loadSessions.mockRejectedValue(new Error(''));
    actor.send({ type: 'devices.reloadRequested' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to load your signed-in devices');

    loadSessions.mockResolvedValue([PHONE]);
    actor.send({ type: 'devices.reloadRequested' });
    await nextTick();
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ sessions: [PHONE], error: null });
  });

  it('signs another device out (busy, one at a time) and drops it from the list', async () => {
    const { actor, auth } = await loaded();
    actor.send({ type: 'device.signOutRequested', id: PHONE.id });
    expect(actor.getSnapshot().matches('signingOut')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().context.signingOut).toEqual(PHONE);
    expect(signOutSession).toHaveBeenCalledWith(PHONE.id, { signal: expect.any(AbortSignal) });
    actor.send({ type: 'device.signOutRequested', id: TABLET.id });
    expect(signOutSession).toHaveBeenCalledTimes(1);

    signOut.resolve();
    await nextTick();
    // "Signed out." for 3 s (tagged success), then the list at rest.
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    expect(SIGNED_OUT_NOTICE).toBe('Signed out.');
    expect(actor.getSnapshot().context).toMatchObject({ sessions: [HERE, TABLET], signingOut: null, error: null });
    expect(auth.received).toEqual([]);
    // The next device can be signed out under the notice; one not listed cannot.
    actor.send({ type: 'device.signOutRequested', id: 'not-listed-session-id' });
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
    actor.send({ type: 'device.signOutRequested', id: TABLET.id });
    expect(actor.getSnapshot().matches('signingOut')).toBe(true);
    expect(actor.getSnapshot().context.signingOut).toEqual(TABLET);
  });

  it('"Signed out." stays 3 s, then the list is at rest', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { actor } = start();
      load.resolve([HERE, PHONE]);
      signOut.resolve();
      await vi.advanceTimersByTimeAsync(0);
      actor.send({ type: 'device.signOutRequested', id: PHONE.id });
      await vi.advanceTimersByTimeAsync(0);
      expect(actor.getSnapshot().matches('signedOut')).toBe(true);
      await vi.advanceTimersByTimeAsync(2999);
      expect(actor.getSnapshot().matches('signedOut')).toBe(true);
      await vi.advanceTimersByTimeAsync(1);
      expect(actor.getSnapshot().matches('ready')).toBe(true);
      expect(actor.getSnapshot().hasTag('success')).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('ignores an id that is not in the list', async () => {
    const { actor } = await loaded();
    actor.send({ type: 'device.signOutRequested', id: 'someone-elses-session' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(signOutSession).not.toHaveBeenCalled();
  });

  it('signing out this device ends the session here (like Log Out)', async () => {
    const { actor, auth } = await loaded();
    actor.send({ type: 'device.signOutRequested', id: HERE.id });
    expect(auth.received).toEqual([]);
    signOut.resolve();
    await nextTick();
    expect(actor.getSnapshot().status).toBe('done');
    expect(auth.received).toEqual([{ type: 'logout' }]);
  });

  it("a refused sign-out shows the server's message or the fallback, keeps the list, and can be tried again", async () => {
    const { actor, auth } = await loaded();
    actor.send({ type: 'device.signOutRequested', id: PHONE.id });
    signOut.reject(new Error('This session was not found. It may already be signed out.'));
    await nextTick();
    expect(actor.getSnapshot().matches('signOutFailure')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context).toMatchObject({
      sessions: [HERE, PHONE, TABLET],
      signingOut: null,
      error: 'This session was not found. It may already be signed out.',
    });

    actor.send({ type: 'device.signOutRequested', id: 'not-listed-session-id' });
    expect(actor.getSnapshot().matches('signOutFailure')).toBe(true);

    signOutSession.mockRejectedValue(new Error(''));
    actor.send({ type: 'device.signOutRequested', id: TABLET.id });
    expect(actor.getSnapshot().matches('signingOut')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ signingOut: TABLET, error: null });
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to sign out this device');

    signOutSession.mockResolvedValue(undefined);
    actor.send({ type: 'device.signOutRequested', id: HERE.id });
    await nextTick();
    expect(actor.getSnapshot().status).toBe('done');
    expect(auth.received).toEqual([{ type: 'logout' }]);
  });
});
