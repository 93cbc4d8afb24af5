// @ts-nocheck
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, setup, type AnyEventObject } from 'xstate';
import { cancelSubscription } from '../../../src/api/subscriptions';
import { CANCEL_SUCCESS_MS, cancelledMessage, subscriptionCancelMachine } from '../../../machines/subscriptionCancel.machine';
import type { CancelSubscriptionResponse } from '../../../server/src/contract/subscriptions';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';

vi.mock('../../../src/api/subscriptions', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../src/api/subscriptions')>()),
  cancelSubscription: vi.fn(),
}));

let request: Deferred<CancelSubscriptionResponse>;

beforeEach(() => {
  request = deferred<CancelSubscriptionResponse>();
  vi.mocked(cancelSubscription).mockReset().mockReturnValue(request.promise);
});

/** The flow runs under a stand-in for the Subscriptions tab, which records what the flow tells it. */
function start() {
  const told: AnyEventObject[] = [];
  const tab = setup({ actors: { cancel: subscriptionCancelMachine } }).createMachine({
    invoke: { id: 'cancel', src: 'cancel' },
    on: { 'subscription.changed': { actions: ({ event }) => told.push(event) } },
  });
  const clock = new SimulatedClock();
  const parent = createActor(tab, { clock }).start();
  const actor = parent.getSnapshot().children.cancel!;
  return { actor, clock, told };
}

// Midday UTC: the same calendar day in every time zone the date is shown in.
const cancelAt = '2026-12-01T12:00:00.000Z';

async function cancelSuccessfully(actor: ReturnType<typeof start>['actor'], answer: CancelSubscriptionResponse = { cancelAt }) {
  actor.send({ type: 'cancel.requested' });
  actor.send({ type: 'cancel.confirmed' });
  request.resolve(answer);
  await nextTick();
}

describe('subscriptionCancel (SPEC §2 Subscriptions tab, §4 Cancellation, §8, §9)', () => {
  it('Unsubscribe opens the confirmation; "No, Keep Subscription" closes it and sends nothing', () => {
    const { actor, told } = start();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ cancelAt: null, error: null });
    actor.send({ type: 'cancel.confirmed' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);

    actor.send({ type: 'cancel.requested' });
    expect(actor.getSnapshot().matches('confirming')).toBe(true);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);

    actor.send({ type: 'cancel.dismissed' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(false);
    expect(cancelSubscription).not.toHaveBeenCalled();
    expect(told).toEqual([]);
  });

  it('"Yes, Cancel" asks the server once, busy in the dialog, and ignores the buttons meanwhile', () => {
    const { actor } = start();
    actor.send({ type: 'cancel.requested' });
    actor.send({ type: 'cancel.confirmed' });
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches('cancelling')).toBe(true);
    expect(snapshot.hasTag('dialog')).toBe(true);
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(cancelSubscription).toHaveBeenCalledWith({ signal: expect.any(AbortSignal) });
    // The path tests settle the call by its done and error events, which carry this name.
    expect(Object.keys(snapshot.children)).toEqual(['cancelSubscription']);

    actor.send({ type: 'cancel.dismissed' });
    actor.send({ type: 'cancel.confirmed' });
    actor.send({ type: 'cancel.requested' });
    expect(actor.getSnapshot().matches('cancelling')).toBe(true);
    expect(cancelSubscription).toHaveBeenCalledTimes(1);
  });

  it('on success closes the dialog, shows until when access lasts, has the tab reload, and clears the message after 5000 ms', async () => {
    const { actor, clock, told } = start();
    await cancelSuccessfully(actor);
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches('cancelled')).toBe(true);
    expect(snapshot.hasTag('success')).toBe(true);
    expect(snapshot.hasTag('dialog')).toBe(false);
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context).toEqual({ cancelAt, error: null });
    expect(told).toEqual([{ type: 'subscription.changed' }]);
    expect(CANCEL_SUCCESS_MS).toBe(5000);

    clock.increment(4999);
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('success')).toBe(false);
    expect(actor.getSnapshot().context).toEqual({ cancelAt: null, error: null });
    expect(told).toHaveLength(1);
  });

  it('words the message with the cancelAt date, or the end of the billing period when the provider gave none', async () => {
    expect(cancelledMessage(cancelAt)).toBe(
      `Your subscription has been cancelled. You keep access until ${new Date(cancelAt).toLocaleDateString()}.`,
    );
    expect(cancelledMessage(null)).toBe('Your subscription has been cancelled. You keep access until the end of your billing period.');

    const { actor } = start();
    await cancelSuccessfully(actor, { cancelAt: null });
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    expect(actor.getSnapshot().context.cancelAt).toBeNull();
  });

  it("on failure closes the dialog with the server's diagnostic, or 'Failed to cancel subscription', and tells the tab nothing", async () => {
    const { actor, told } = start();
    actor.send({ type: 'cancel.requested' });
    actor.send({ type: 'cancel.confirmed' });
    request.reject(new Error('Failed to cancel subscription: 400 Bad Request - No active subscription'));
    await nextTick();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(false);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context.error).toBe('Failed to cancel subscription: 400 Bad Request - No active subscription');
    expect(told).toEqual([]);

    vi.mocked(cancelSubscription).mockRejectedValue(new Error(''));
    actor.send({ type: 'cancel.requested' });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'cancel.confirmed' });
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to cancel subscription');
  });
});
