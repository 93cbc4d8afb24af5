import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import type { ChangePasswordPayload } from '../../../server/src/contract/auth';
import { PASSWORD_CHANGED_MESSAGE, passwordChangeMachine } from '../../../machines/passwordChange.machine';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick, recordingAuth } from './machineTestKit';

/** API doubles, shaped like the service calls the machine's actors make; each test sets what they answer. */
const changePassword = vi.fn<(payload: ChangePasswordPayload, options: { signal: AbortSignal }) => Promise<string | null>>();
const machine = passwordChangeMachine.provide({
  actors: {
    changePassword: fromPromise<string | null, ChangePasswordPayload>(({ input, signal }) => changePassword(input, { signal })),
  },
});

let request: Deferred<string | null>;

beforeEach(() => {
  request = deferred<string | null>();
  changePassword.mockReset().mockReturnValue(request.promise);
});

function start() {
  const session = recordingAuth();
  const clock = new SimulatedClock();
  const actor = createActor(machine, { input: { auth: session.auth }, inspect: session.inspect, clock }).start();
  return { actor, clock, session };
}

const fields = { currentPassword: 'old-secret', password: 'new-secret', passwordConfirmation: 'new-secret' };

async function changeSuccessfully(actor: ReturnType<typeof start>['actor'], jwt: string | null = 'new-token') {
  actor.send({ type: 'panel.toggled' });
  actor.send({ type: 'change.submitted', fields });
  request.resolve(jwt);
  await nextTick();
}

describe('passwordChange (SPEC §2 Profile Information, §4 Password change panel, §5, §8, §9)', () => {
  it('starts closed and toggles open and closed', () => {
    const { actor } = start();
    expect(actor.getSnapshot().matches({ closed: 'idle' })).toBe(true);
    actor.send({ type: 'panel.toggled' });
    expect(actor.getSnapshot().matches({ open: 'idle' })).toBe(true);
    actor.send({ type: 'panel.toggled' });
    expect(actor.getSnapshot().matches({ closed: 'idle' })).toBe(true);
  });

  it('closes on Cancel', () => {
    const { actor } = start();
    actor.send({ type: 'panel.toggled' });
    actor.send({ type: 'change.cancelled' });
    expect(actor.getSnapshot().matches({ closed: 'idle' })).toBe(true);
  });

  it.each([
    [{ ...fields, currentPassword: '' }, 'All password fields are required'],
    [{ ...fields, password: '' }, 'All password fields are required'],
    [{ ...fields, passwordConfirmation: 'other-secret' }, 'New passwords do not match'],
    [{ currentPassword: 'old-secret', password: 'short', passwordConfirmation: 'short' }, 'New password must be at least 6 characters'],
  ])('refuses %j with %j and sends nothing', (submitted, message) => {
    const { actor } = start();
    actor.send({ type: 'panel.toggled' });
    actor.send({ type: 'change.submitted', fields: submitted });
    expect(actor.getSnapshot().matches({ open: 'invalid' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBe(message);
    expect(changePassword).not.toHaveBeenCalled();
  });

  it('sends the three fields, is busy meanwhile and ignores Cancel, toggle and a second submission', () => {
    const { actor } = start();
    actor.send({ type: 'panel.toggled' });
    actor.send({ type: 'change.submitted', fields: { ...fields, password: '' } });
    actor.send({ type: 'change.submitted', fields });
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ open: 'submitting' })).toBe(true);
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.context.error).toBeNull();
    expect(changePassword).toHaveBeenCalledWith(fields, { signal: expect.any(AbortSignal) });

    actor.send({ type: 'change.submitted', fields });
    actor.send({ type: 'panel.toggled' });
    actor.send({ type: 'change.cancelled' });
    expect(actor.getSnapshot().matches({ open: 'submitting' })).toBe(true);
    expect(changePassword).toHaveBeenCalledTimes(1);
  });

  it('closes the panel with a success message that disappears after 3000 ms', async () => {
    const { actor, clock } = start();
    await changeSuccessfully(actor);
    expect(actor.getSnapshot().matches({ closed: 'changed' })).toBe(true);
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(PASSWORD_CHANGED_MESSAGE).toBe('Password changed successfully!');

    clock.increment(2999);
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches({ closed: 'idle' })).toBe(true);
    expect(actor.getSnapshot().hasTag('success')).toBe(false);
  });

  it('hands the fresh token the server answered to the session', async () => {
    const { actor, session } = start();
    await changeSuccessfully(actor, 'new-token');
    expect(session.received).toEqual([{ type: 'session.tokenRenewed', jwt: 'new-token' }]);
  });

  it("shows the server's message, or 'Failed to change password', and keeps the panel open", async () => {
    const { actor } = start();
    actor.send({ type: 'panel.toggled' });
    actor.send({ type: 'change.submitted', fields });
    request.reject(new Error('The provided current password is invalid'));
    await nextTick();
    expect(actor.getSnapshot().matches({ open: 'failure' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('The provided current password is invalid');

    changePassword.mockRejectedValue(new Error(''));
    actor.send({ type: 'change.submitted', fields });
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to change password');
  });

  it.each([['panel.toggled' as const], ['change.cancelled' as const]])('forgets the error when closed by %s', (type) => {
    const { actor } = start();
    actor.send({ type: 'panel.toggled' });
    actor.send({ type: 'change.submitted', fields: { ...fields, password: '' } });
    actor.send({ type });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
