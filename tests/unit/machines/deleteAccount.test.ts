import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import { deleteAccountMachine } from '../../../machines/deleteAccount.machine';
import type { CurrentSubscriptionAnswer } from '../../../server/src/contract/subscriptions';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick, recordingAuth } from './machineTestKit';

/** API doubles, shaped like the service calls the machine's actors make; each test sets what they answer. */
const deleteAccount = vi.fn<(options: { signal: AbortSignal }) => Promise<void>>();
const currentSubscription = vi.fn<(options: { signal: AbortSignal }) => Promise<CurrentSubscriptionAnswer | null>>();
const machine = deleteAccountMachine.provide({
  actors: {
    deleteAccount: fromPromise<void>(({ signal }) => deleteAccount({ signal })),
    currentSubscription: fromPromise<CurrentSubscriptionAnswer | null>(({ signal }) => currentSubscription({ signal })),
  },
});

// DELETE /api/users-permissions/users/delete-account (SPEC §7) is a double; the machine's own actor calls it.
let request: Deferred<void>;

beforeEach(() => {
  request = deferred<void>();
  deleteAccount.mockReset().mockReturnValue(request.promise);
  currentSubscription.mockReset().mockResolvedValue(null);
});

/** Logged in, the page first learns of the member's subscription (GET /api/subscriptions/current, a double). */
async function start(loggedIn: boolean) {
  const session = recordingAuth();
  const clock = new SimulatedClock();
  const actor = createActor(machine, { input: { auth: session.auth, loggedIn }, inspect: session.inspect, clock }).start();
  await nextTick();
  return { actor, clock, session };
}

/** Logged in, 'Delete My Account' then 'Yes, Delete': the request is under way. */
async function startDeleting() {
  const started = await start(true);
  started.actor.send({ type: 'deletion.requested' });
  started.actor.send({ type: 'deletion.confirmed' });
  return started;
}

describe('deleteAccount (SPEC §2 Delete Account, §4 Delete flow, §6, §8, §9)', () => {
  describe('logged out', () => {
    it('waits 2 seconds, then sends the visitor to /login with from=/delete-profile and the notice', async () => {
      const { actor, clock, session } = await start(false);
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

    it('offers no deletion', async () => {
      const { actor } = await start(false);
      actor.send({ type: 'deletion.requested' });
      actor.send({ type: 'deletion.confirmed' });
      expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
      expect(deleteAccount).not.toHaveBeenCalled();
    });
  });

  describe('logged in', () => {
    it('starts idle and never redirects', async () => {
      const { actor, clock, session } = await start(true);
      expect(actor.getSnapshot().matches('idle')).toBe(true);
      expect(actor.getSnapshot().context.error).toBeNull();
      clock.increment(60_000);
      expect(actor.getSnapshot().matches('idle')).toBe(true);
      expect(session.received).toEqual([]);
    });

    it("'Delete My Account' opens the dialog, which stays open until answered, and 'Cancel' closes it", async () => {
      const { actor, clock } = await start(true);
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

    it("'Yes, Delete' deletes with the dialog open and its buttons disabled ('Deleting...'), ignoring the buttons meanwhile", async () => {
      const { actor } = await startDeleting();
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
      const { actor, session } = await startDeleting();
      expect(session.received).toEqual([]);
      request.resolve();
      await nextTick();
      expect(actor.getSnapshot().status).toBe('done');
      expect(session.received).toEqual([{ type: 'account.deleted' }]);
      expect(session.auth.getSnapshot().context.notice).toBe('Your account has been deleted successfully.');
      expect(session.auth.getSnapshot().context.session).toBeNull();
    });

    it("shows the server's message, or 'Failed to delete account', and closes the dialog", async () => {
      const { actor, session } = await startDeleting();
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
      const { actor } = await startDeleting();
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

  describe('what deleting does to the subscription (issue 30 item 7)', () => {
    const answer = (
      status: CurrentSubscriptionAnswer['status'],
      changes: Partial<Omit<CurrentSubscriptionAnswer, 'refundableAmount'>> = {},
    ): CurrentSubscriptionAnswer => ({
      id: 'sub_1',
      status,
      plan: { id: 1, productName: 'Carnivo Yearly', amount: 7999, interval: 'year' },
      startDate: '2026-11-20T10:00:00.000Z',
      currentPeriodEnd: '2027-11-20T10:00:00.000Z',
      cancel_at_period_end: false,
      refundableUntil: null,
      ...changes,
      refundableAmount: changes.refundableUntil ? 7999 : null,
    });

    it('looks the subscription up first, and asking to delete waits for it', async () => {
      const lookup = deferred<CurrentSubscriptionAnswer | null>();
      currentSubscription.mockReturnValue(lookup.promise);
      const { actor } = await start(true);
      expect(actor.getSnapshot().matches('checkingSubscription')).toBe(true);
      expect(actor.getSnapshot().hasTag('checking')).toBe(true);
      expect(currentSubscription).toHaveBeenCalledTimes(1);
      // Nothing is said of a subscription until the answer comes.
      expect(actor.getSnapshot().context.subscription).toEqual({ kind: 'none' });
      actor.send({ type: 'deletion.requested' });
      expect(actor.getSnapshot().matches('checkingSubscription')).toBe(true);

      lookup.resolve(answer('active'));
      await nextTick();
      expect(actor.getSnapshot().matches('idle')).toBe(true);
      expect(actor.getSnapshot().hasTag('checking')).toBe(false);
      actor.send({ type: 'deletion.requested' });
      expect(actor.getSnapshot().matches('confirming')).toBe(true);
    });

    it.each([
      ['no subscription', null, { kind: 'none' }],
      ['only a purchase waiting for its payment', answer('incomplete'), { kind: 'none' }],
      ['an ended one', answer('canceled'), { kind: 'none' }],
      ['a plan held', answer('active'), { kind: 'ends', plan: 'Carnivo Yearly', refundableUntil: null }],
      [
        'a plan set to cancel',
        answer('active', { cancel_at_period_end: true }),
        { kind: 'ends', plan: 'Carnivo Yearly', refundableUntil: null },
      ],
      ['a renewal unpaid', answer('past_due'), { kind: 'ends', plan: 'Carnivo Yearly', refundableUntil: null }],
      ['a plan deleted since', answer('active', { plan: null }), { kind: 'ends', plan: null, refundableUntil: null }],
      [
        'a plan within the guarantee',
        answer('active', { refundableUntil: '2026-12-20T10:00:00.000Z' }),
        { kind: 'ends', plan: 'Carnivo Yearly', refundableUntil: '2026-12-20T10:00:00.000Z' },
      ],
    ] as const)('%s', async (_name, current, expected) => {
      currentSubscription.mockResolvedValue(current);
      const { actor } = await start(true);
      expect(actor.getSnapshot().matches('idle')).toBe(true);
      expect(actor.getSnapshot().context.subscription).toEqual(expected);
    });

    it('a failed lookup leaves it unknown, and deletion is still offered', async () => {
      currentSubscription.mockRejectedValue(new Error('Failed to load current subscription'));
      const { actor } = await start(true);
      expect(actor.getSnapshot().matches('idle')).toBe(true);
      expect(actor.getSnapshot().context.subscription).toEqual({ kind: 'unknown' });
      expect(actor.getSnapshot().context.error).toBeNull();
    });

    it('logged out, nothing is looked up', async () => {
      await start(false);
      expect(currentSubscription).not.toHaveBeenCalled();
    });
  });
});
