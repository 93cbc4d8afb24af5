import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { logoutAllDevicesMachine } from '../../../machines/logoutAllDevices.machine';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick, recordingAuth } from './machineTestKit';

/** API doubles, shaped like the service calls the machine's actors make; each test sets what they answer. */
const logoutAllDevices = vi.fn<(options: { signal: AbortSignal }) => Promise<void>>();
const machine = logoutAllDevicesMachine.provide({
  actors: { logoutAllDevices: fromPromise<void>(({ signal }) => logoutAllDevices({ signal })) },
});

let request: Deferred<void>;

beforeEach(() => {
  request = deferred<void>();
  logoutAllDevices.mockReset().mockReturnValue(request.promise);
});

function start() {
  const session = recordingAuth();
  const actor = createActor(machine, { input: { auth: session.auth }, inspect: session.inspect }).start();
  return { actor, session };
}

describe('logoutAllDevices ("Log out of all devices" on the Profile)', () => {
  it('asks the server to revoke every token (busy) and ignores a second request meanwhile', () => {
    const { actor } = start();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    actor.send({ type: 'logoutAll.requested' });
    expect(actor.getSnapshot().matches('submitting')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(logoutAllDevices).toHaveBeenCalledWith({ signal: expect.any(AbortSignal) });

    actor.send({ type: 'logoutAll.requested' });
    expect(logoutAllDevices).toHaveBeenCalledTimes(1);
  });

  it('on success ends and tells the session, which forgets this device too', async () => {
    const { actor, session } = start();
    actor.send({ type: 'logoutAll.requested' });
    expect(session.received).toEqual([]);
    request.resolve();
    await nextTick();
    expect(actor.getSnapshot().status).toBe('done');
    expect(session.received).toEqual([{ type: 'session.revokedEverywhere' }]);
  });

  it("shows the server's message, or the fallback, and can be tried again", async () => {
    const { actor, session } = start();
    actor.send({ type: 'logoutAll.requested' });
    request.reject(new Error('Not authenticated'));
    await nextTick();
    expect(actor.getSnapshot().matches('failure')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('Not authenticated');
    expect(session.received).toEqual([]);

    logoutAllDevices.mockRejectedValue(new Error(''));
    actor.send({ type: 'logoutAll.requested' });
    expect(actor.getSnapshot().matches('submitting')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to log out of all devices');
  });
});
