import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise, setup, type AnyEventObject } from 'xstate';
import { CANCEL_SUCCESS_MS, cancelledMessage, subscriptionCancelMachine } from '../../../machines/subscriptionCancel.machine';
import type { CancelSubscriptionResponse, CurrentSubscription } from '../../../server/src/contract/subscriptions';
import { formatDate } from '../../../machines/rules/dates';
import { activeSubscription } from '../../support/subscriptionFixtures';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';
import { SUCCESS_NOTICE_MS } from '../../../machines/shared/notice';

/** API doubles, shaped like the service calls the machine's actors make; each test sets what they answer. */
const cancelSubscription = vi.fn<(options: { signal: AbortSignal }) => Promise<CancelSubscriptionResponse>>();
const resumeSubscription = vi.fn<(options: { signal: AbortSignal }) => Promise<CurrentSubscription>>();
const machine = subscriptionCancelMachine.provide({
  actors: {
    cancelSubscription: fromPromise<CancelSubscriptionResponse>(({ signal }) => cancelSubscription({ signal })),
    resumeSubscription: fromPromise<CurrentSubscription>(({ signal }) => resumeSubscription({ signal })),
  },
});

let request: Deferred<CancelSubscriptionResponse>;
let resume: Deferred<CurrentSubscription>;

beforeEach(() => {
  request = deferred<CancelSubscriptionResponse>();
  cancelSubscription.mockReset().mockReturnValue(request.promise);
  resume = deferred<CurrentSubscription>();
  resumeSubscription.mockReset().mockReturnValue(resume.promise);
});

/** The flow runs under a stand-in for the Subscriptions tab, which records what the flow tells it. */
function start() {
  const told: AnyEventObject[] = [];
  const started: AnyEventObject[] = [];
  const tab = setup({ actors: { cancel: machine } }).createMachine({
    invoke: { id: 'cancel', src: 'cancel' },
    on: {
      'subscription.changed': { actions: ({ event }) => told.push(event) },
      'cancel.started': { actions: ({ event }) => started.push(event) },
    },
  });
  const clock = new SimulatedClock();
  const parent = createActor(tab, { clock }).start();
  const actor = parent.getSnapshot().children.cancel!;
  return { actor, clock, told, started };
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
    expect(cancelledMessage(cancelAt)).toBe(`Your subscription has been cancelled. You keep access until ${formatDate(cancelAt)}.`);
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

    cancelSubscription.mockRejectedValue(new Error(''));
    actor.send({ type: 'cancel.requested' });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'cancel.confirmed' });
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to cancel subscription');
  });

  it('Resume asks the server once, busy, then says so for 3000 ms and has the tab reload', async () => {
    const { actor, clock, told } = start();
    actor.send({ type: 'resume.requested' });
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches('resuming')).toBe(true);
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.hasTag('dialog')).toBe(false);
    expect(resumeSubscription).toHaveBeenCalledWith({ signal: expect.any(AbortSignal) });
    expect(Object.keys(snapshot.children)).toEqual(['resumeSubscription']);
    actor.send({ type: 'resume.requested' });
    actor.send({ type: 'cancel.requested' });
    expect(actor.getSnapshot().matches('resuming')).toBe(true);
    expect(resumeSubscription).toHaveBeenCalledTimes(1);
    expect(told).toEqual([]);

    resume.resolve(activeSubscription);
    await nextTick();
    expect(actor.getSnapshot().matches('resumed')).toBe(true);
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(told).toEqual([{ type: 'subscription.changed' }]);
    expect(SUCCESS_NOTICE_MS).toBe(3000);
    clock.increment(2999);
    expect(actor.getSnapshot().matches('resumed')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('success')).toBe(false);
  });

  it('Resume during the cancel message drops the cancel date; Unsubscribe during the resume message confirms again', async () => {
    const { actor, clock } = start();
    await cancelSuccessfully(actor);
    actor.send({ type: 'resume.requested' });
    expect(actor.getSnapshot().matches('resuming')).toBe(true);
    expect(actor.getSnapshot().context.cancelAt).toBeNull();
    resume.resolve(activeSubscription);
    await nextTick();
    // The cancel message's timer is gone: only the resume message's 3000 ms count.
    clock.increment(CANCEL_SUCCESS_MS - 1);
    expect(actor.getSnapshot().matches('idle')).toBe(true);

    resumeSubscription.mockResolvedValue(activeSubscription);
    actor.send({ type: 'resume.requested' });
    await nextTick();
    expect(actor.getSnapshot().matches('resumed')).toBe(true);
    cancelSubscription.mockRejectedValueOnce(new Error('No'));
    actor.send({ type: 'cancel.requested' });
    actor.send({ type: 'cancel.confirmed' });
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('No');
    actor.send({ type: 'resume.requested' });
    await nextTick();
    actor.send({ type: 'cancel.requested' });
    expect(actor.getSnapshot().matches('confirming')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it("a refused resume shows the server's text, or 'Failed to resume subscription', and tells the tab nothing", async () => {
    const { actor, told } = start();
    actor.send({ type: 'resume.requested' });
    resume.reject(new Error('There is no cancelled subscription to resume.'));
    await nextTick();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context.error).toBe('There is no cancelled subscription to resume.');
    expect(told).toEqual([]);

    const again = deferred<CurrentSubscription>();
    resumeSubscription.mockReturnValue(again.promise);
    actor.send({ type: 'resume.requested' });
    expect(actor.getSnapshot().context.error).toBeNull();
    again.reject(new Error(''));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to resume subscription');
  });

  it('tells the tab when it asks the server to cancel or resume, not when the confirmation merely opens', async () => {
    const { actor, started } = start();
    actor.send({ type: 'cancel.requested' });
    actor.send({ type: 'cancel.dismissed' });
    expect(started).toEqual([]);
    actor.send({ type: 'cancel.requested' });
    actor.send({ type: 'cancel.confirmed' });
    expect(started).toEqual([{ type: 'cancel.started' }]);
    request.resolve({ cancelAt });
    await nextTick();
    actor.send({ type: 'resume.requested' });
    expect(started).toEqual([{ type: 'cancel.started' }, { type: 'cancel.started' }]);
  });

  it("gives way to a purchase's outcome: 'notice.cleared' ends the cancel message at once", async () => {
    const { actor, clock } = start();
    await cancelSuccessfully(actor);
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    actor.send({ type: 'notice.cleared' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ cancelAt: null, error: null });
    clock.increment(CANCEL_SUCCESS_MS);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
  });

  it("gives way to a purchase's outcome: 'notice.cleared' clears a refusal, and is ignored mid-request", async () => {
    const { actor } = start();
    actor.send({ type: 'resume.requested' });
    actor.send({ type: 'notice.cleared' });
    expect(actor.getSnapshot().matches('resuming')).toBe(true);
    resume.reject(new Error('There is no cancelled subscription to resume.'));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('There is no cancelled subscription to resume.');
    actor.send({ type: 'notice.cleared' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
