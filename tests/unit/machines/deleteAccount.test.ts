import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import { deleteAccountMachine } from '../../../machines/deleteAccount.machine';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick, recordingAuth } from './machineTestKit';

/** API doubles, shaped like the service calls the machine's actors make; each test sets what they answer. */
const deleteAccount = vi.fn<(options: { signal: AbortSignal }) => Promise<void>>();
const machine = deleteAccountMachine.provide({ actors: { deleteAccount: fromPromise<void>(({ signal }) => deleteAccount({ signal })) } });

// DELETE /api/users-permissions/users/delete-account (SPEC §7) is a double; the machine's own actor calls it.
let request: Deferred<void>;

beforeEach(() => {
  request = deferred<void>();
  deleteAccount.mockReset().mockReturnValue(request.promise);
});

function start(loggedIn: boolean) {
  const session = recordingAuth();
  const clock = new SimulatedClock();
  const actor = createActor(machine, { input: { auth: session.auth, loggedIn }, inspect: session.inspect, clock }).start();
  return { actor, clock, session };
}

/** Logged in, 'Delete My Account' then 'Yes, Delete': the request is under way. */
function startDeleting() {
  const started = start(true);
  started.actor.send({ type: 'deletion.requested' });
  started.actor.send({ type: 'deletion.confirmed' });
  return started;
}

describe('deleteAccount (SPEC §2 Delete Account, §4 Delete flow, §6, §8, §9)', () => {
  describe('logged out', () => {
    it('waits 2 seconds, then sends the visitor to /login with from=/delete-profile and the notice', () => {
      const { actor, clock, session } = start(false);
      expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
      expect(actor.getSnapshot().hasTag('dialog')).toBe(false);
      clock.increment(1999);
      expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
      expect(session.received).toEqual([]);

      clock.increment(1);
      expect(actor.getSnapshot().status).toBe('done');
      expect(session.received).toEqual([
        { type: 'login.requested', notice: 'Please log in to proceed with account deletion', from: '/delete-profile' },
      ]);
    });

    it('offers no deletion', () => {
      const { actor } = start(false);
      actor.send({ type: 'deletion.requested' });
      actor.send({ type: 'deletion.confirmed' });
      expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
      expect(deleteAccount).not.toHaveBeenCalled();
    });
  });

  describe('logged in', () => {
    it('starts idle and never redirects', () => {
      const { actor, clock, session } = start(true);
      expect(actor.getSnapshot().matches('idle')).toBe(true);
      expect(actor.getSnapshot().context.error).toBeNull();
      clock.increment(60_000);
      expect(actor.getSnapshot().matches('idle')).toBe(true);
      expect(session.received).toEqual([]);
    });

    it("'Delete My Account' opens the dialog, which stays open until answered, and 'Cancel' closes it", () => {
      const { actor, clock } = start(true);
      actor.send({ type: 'deletion.confirmed' });
      expect(actor.getSnapshot().matches('idle')).toBe(true);
      expect(deleteAccount).not.toHaveBeenCalled();

      actor.send({ type: 'deletion.requested' });
      expect(actor.getSnapshot().matches('confirming')).toBe(true);
      expect(actor.getSnapshot().hasTag('dialog')).toBe(true);
      expect(actor.getSnapshot().hasTag('busy')).toBe(false);
      clock.increment(600_000);
      expect(actor.getSnapshot().matches('confirming')).toBe(true);

      actor.send({ type: 'deletion.cancelled' });
      expect(actor.getSnapshot().matches('idle')).toBe(true);
      expect(actor.getSnapshot().hasTag('dialog')).toBe(false);
      expect(deleteAccount).not.toHaveBeenCalled();
    });

    it("'Yes, Delete' deletes with the dialog open and its buttons disabled ('Deleting...'), ignoring the buttons meanwhile", () => {
      const { actor } = startDeleting();
      expect(actor.getSnapshot().matches('deleting')).toBe(true);
      expect(actor.getSnapshot().hasTag('dialog')).toBe(true);
      expect(actor.getSnapshot().hasTag('busy')).toBe(true);
      expect(deleteAccount).toHaveBeenCalledWith({ signal: expect.any(AbortSignal) });

      actor.send({ type: 'deletion.cancelled' });
      actor.send({ type: 'deletion.requested' });
      actor.send({ type: 'deletion.confirmed' });
      expect(actor.getSnapshot().matches('deleting')).toBe(true);
      expect(deleteAccount).toHaveBeenCalledTimes(1);
    });

    it('ends and tells the session, which forgets the token and shows /login with the message', async () => {
      const { actor, session } = startDeleting();
      expect(session.received).toEqual([]);
      request.resolve();
      await nextTick();
      expect(actor.getSnapshot().status).toBe('done');
      expect(session.received).toEqual([{ type: 'account.deleted' }]);
      expect(session.auth.getSnapshot().context.notice).toBe('Your account has been deleted successfully.');
      expect(session.auth.getSnapshot().context.session).toBeNull();
    });

    it("shows the server's message, or 'Failed to delete account', and closes the dialog", async () => {
      const { actor, session } = startDeleting();
      request.reject(new Error('Authentication token missing'));
      await nextTick();
      expect(actor.getSnapshot().matches('failure')).toBe(true);
      expect(actor.getSnapshot().hasTag('dialog')).toBe(false);
      expect(actor.getSnapshot().hasTag('busy')).toBe(false);
      expect(actor.getSnapshot().context.error).toBe('Authentication token missing');
      expect(session.received).toEqual([]);

      deleteAccount.mockRejectedValue(new Error(''));
      actor.send({ type: 'deletion.requested' });
      actor.send({ type: 'deletion.confirmed' });
      await nextTick();
      expect(actor.getSnapshot().context.error).toBe('Failed to delete account');
    });

    it("after a failure, 'Delete My Account' asks again in the dialog and clears the error", async () => {
      const { actor } = startDeleting();
      request.reject(new Error('Failed to delete account'));
      await nextTick();
      actor.send({ type: 'deletion.confirmed' });
      actor.send({ type: 'deletion.cancelled' });
      expect(actor.getSnapshot().matches('failure')).toBe(true);

      actor.send({ type: 'deletion.requested' });
      expect(actor.getSnapshot().matches('confirming')).toBe(true);
      expect(actor.getSnapshot().context.error).toBeNull();
      expect(deleteAccount).toHaveBeenCalledTimes(1);
    });
  });
});
