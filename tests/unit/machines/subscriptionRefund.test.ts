import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise, setup, type AnyEventObject } from 'xstate';
import { refundedMessage, subscriptionRefundMachine } from '../../../machines/subscriptionRefund.machine';
import { ApiError } from '../../../machines/services/errors';
import { SUCCESS_NOTICE_MS } from '../../../machines/shared/notice';
import { refundRefusals, type RefundSubscriptionResponse } from '../../../server/src/contract/subscriptions';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';

/** POST /api/subscriptions/refund as a double, shaped like the service call the machine's actor makes. */
const requestRefund = vi.fn<(options: { signal: AbortSignal }) => Promise<RefundSubscriptionResponse>>();
const machine = subscriptionRefundMachine.provide({
  actors: { requestRefund: fromPromise<RefundSubscriptionResponse>(({ signal }) => requestRefund({ signal })) },
});

let request: Deferred<RefundSubscriptionResponse>;
const REFUND: RefundSubscriptionResponse = { invoiceId: 'in_1', amount: 7999, currency: 'usd' };

beforeEach(() => {
  request = deferred<RefundSubscriptionResponse>();
  requestRefund.mockReset().mockReturnValue(request.promise);
});

/** The flow runs under a stand-in for the Subscriptions tab, which records what the flow tells it. */
function start() {
  const told: AnyEventObject[] = [];
  const started: AnyEventObject[] = [];
  const tab = setup({ actors: { refund: machine } }).createMachine({
    invoke: { id: 'refund', src: 'refund' },
    on: {
      'subscription.changed': { actions: ({ event }) => told.push(event) },
      'refund.started': { actions: ({ event }) => started.push(event) },
    },
  });
  const clock = new SimulatedClock();
  const parent = createActor(tab, { clock }).start();
  const actor = parent.getSnapshot().children.refund!;
  return { actor, clock, told, started };
}

describe('subscriptionRefund (issue 30 item 3: the 30-day money-back guarantee)', () => {
  it('says what came back, in dollars', () => {
    expect(refundedMessage(REFUND)).toBe('Your first payment of $79.99 has been refunded and your subscription has ended.');
  });

  it('"Request a refund" opens the confirmation; "No, Keep Subscription" closes it and sends nothing', () => {
    const { actor, told, started } = start();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ refund: null, error: null });
    actor.send({ type: 'refund.confirmed' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);

    actor.send({ type: 'refund.requested' });
    expect(actor.getSnapshot().matches('confirming')).toBe(true);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);

    actor.send({ type: 'refund.dismissed' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(false);
    expect(requestRefund).not.toHaveBeenCalled();
    expect([told, started]).toEqual([[], []]);
  });

  it('"Yes, Refund" asks the server once, busy in the dialog, tells the tab it started, and ignores the buttons meanwhile', () => {
    const { actor, started, told } = start();
    actor.send({ type: 'refund.requested' });
    actor.send({ type: 'refund.confirmed' });
    expect(actor.getSnapshot().matches('refunding')).toBe(true);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(requestRefund).toHaveBeenCalledTimes(1);
    expect(requestRefund.mock.calls[0][0].signal).toBeInstanceOf(AbortSignal);
    expect(started).toEqual([{ type: 'refund.started' }]);
    expect(told).toEqual([]);

    actor.send({ type: 'refund.confirmed' });
    actor.send({ type: 'refund.dismissed' });
    actor.send({ type: 'refund.requested' });
    expect(actor.getSnapshot().matches('refunding')).toBe(true);
    expect(requestRefund).toHaveBeenCalledTimes(1);
  });

  it('on success keeps the answer for the message 3 seconds, reloads the tab, then goes back', async () => {
    const { actor, clock, told } = start();
    actor.send({ type: 'refund.requested' });
    actor.send({ type: 'refund.confirmed' });
    request.resolve(REFUND);
    await nextTick();
    expect(actor.getSnapshot().matches('refunded')).toBe(true);
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(false);
    expect(actor.getSnapshot().context).toEqual({ refund: REFUND, error: null });
    expect(told).toEqual([{ type: 'subscription.changed' }]);

    clock.increment(SUCCESS_NOTICE_MS - 1);
    expect(actor.getSnapshot().matches('refunded')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ refund: null, error: null });
  });

  it("another flow's start clears the message at once", async () => {
    const { actor } = start();
    actor.send({ type: 'refund.requested' });
    actor.send({ type: 'refund.confirmed' });
    request.resolve(REFUND);
    await nextTick();
    actor.send({ type: 'notice.cleared' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context.refund).toBeNull();
  });

  it("a refusal shows the server's words, or the fallback, and reloads the tab (it was out of date)", async () => {
    const { actor, told } = start();
    actor.send({ type: 'refund.requested' });
    actor.send({ type: 'refund.confirmed' });
    request.reject(new ApiError(refundRefusals.windowPassed, 409));
    await nextTick();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ refund: null, error: refundRefusals.windowPassed });
    expect(told).toEqual([{ type: 'subscription.changed' }]);

    // Asking again clears it.
    actor.send({ type: 'refund.requested' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('a failure with no message of its own reads as the fallback, and a purchase starting clears it', async () => {
    const failing = deferred<RefundSubscriptionResponse>();
    requestRefund.mockReturnValue(failing.promise);
    const { actor } = start();
    actor.send({ type: 'refund.requested' });
    actor.send({ type: 'refund.confirmed' });
    failing.reject(undefined);
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to refund your payment. Please try again.');
    actor.send({ type: 'notice.cleared' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
