import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise, setup, type AnyEventObject } from 'xstate';
import { manageBillingMachine } from '../../../machines/manageBilling.machine';
import type { SandboxCard } from '../../../server/src/contract/sandboxCard';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';
import { SUCCESS_NOTICE_MS } from '../../../machines/shared/notice';

/** API doubles, shaped like the service calls the machine's actors make; each test sets what they answer. */
const openBillingPortal = vi.fn<(options: { signal: AbortSignal }) => Promise<string>>();
const updateSandboxCard = vi.fn<(card: SandboxCard, options: { signal: AbortSignal }) => Promise<string>>();

const card: SandboxCard = { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };
const PORTAL = 'https://billing.stripe.com/p/session/test_1';
let portal: Deferred<string>;
let update: Deferred<string>;

beforeEach(() => {
  portal = deferred<string>();
  update = deferred<string>();
  openBillingPortal.mockReset().mockReturnValue(portal.promise);
  updateSandboxCard.mockReset().mockReturnValue(update.promise);
});

/** The flow runs under a stand-in for the Subscriptions tab, which records what the flow tells it. */
function start() {
  const redirectTo = vi.fn<(url: string) => void>();
  const told: AnyEventObject[] = [];
  const tab = setup({
    actors: {
      manage: manageBillingMachine.provide({
        actors: {
          openPortal: fromPromise<string>(({ signal }) => openBillingPortal({ signal })),
          updateCard: fromPromise<string, SandboxCard>(({ input, signal }) => updateSandboxCard(input, { signal })),
        },
        actions: { redirectTo: (_, url) => redirectTo(url) },
      }),
    },
  }).createMachine({
    invoke: { id: 'manage', src: 'manage' },
    on: { 'card.changed': { actions: ({ event }) => told.push(event) } },
  });
  const clock = new SimulatedClock();
  const parent = createActor(tab, { clock }).start();
  const actor = parent.getSnapshot().children.manage!;
  return { actor, clock, redirectTo, told };
}

describe('manageBilling (issue 11: "Manage billing")', () => {
  it('with Stripe asks for a portal session, busy, then leaves for it and stays busy', async () => {
    const { actor, redirectTo } = start();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ error: null });
    actor.send({ type: 'billing.requested', mode: 'stripe' });
    expect(actor.getSnapshot().matches('openingPortal')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(false);
    expect(openBillingPortal).toHaveBeenCalledWith({ signal: expect.any(AbortSignal) });
    expect(Object.keys(actor.getSnapshot().children)).toEqual(['openPortal']);
    actor.send({ type: 'billing.requested', mode: 'stripe' });
    expect(openBillingPortal).toHaveBeenCalledTimes(1);
    expect(redirectTo).not.toHaveBeenCalled();

    portal.resolve(PORTAL);
    await nextTick();
    expect(redirectTo).toHaveBeenCalledExactlyOnceWith(PORTAL);
    expect(actor.getSnapshot().matches('leaving')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    actor.send({ type: 'billing.requested', mode: 'stripe' });
    expect(openBillingPortal).toHaveBeenCalledTimes(1);
  });

  it("a refused portal shows the server's text, or 'Failed to open billing management'; asking again clears it", async () => {
    const { actor, redirectTo } = start();
    actor.send({ type: 'billing.requested', mode: 'stripe' });
    portal.reject(new Error('No billing account yet'));
    await nextTick();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context.error).toBe('No billing account yet');
    expect(redirectTo).not.toHaveBeenCalled();

    openBillingPortal.mockRejectedValue(new Error(''));
    actor.send({ type: 'billing.requested', mode: 'stripe' });
    expect(actor.getSnapshot().context.error).toBeNull();
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to open billing management');
    actor.send({ type: 'billing.requested', mode: 'sandbox' });
    expect(actor.getSnapshot().matches('editingCard')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('in sandbox mode opens the card dialog; Cancel closes it and sends nothing', () => {
    const { actor } = start();
    actor.send({ type: 'card.submitted', card });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    actor.send({ type: 'billing.requested', mode: 'sandbox' });
    expect(actor.getSnapshot().matches('editingCard')).toBe(true);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    actor.send({ type: 'card.dismissed' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(false);
    expect(openBillingPortal).not.toHaveBeenCalled();
    expect(updateSandboxCard).not.toHaveBeenCalled();
  });

  it('sends the new card once, busy in the dialog, then closes it, tells the tab, and says so for 3000 ms', async () => {
    const { actor, clock, told } = start();
    actor.send({ type: 'billing.requested', mode: 'sandbox' });
    actor.send({ type: 'card.submitted', card });
    expect(actor.getSnapshot().hasTag('dialog')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(updateSandboxCard).toHaveBeenCalledExactlyOnceWith(card, { signal: expect.any(AbortSignal) });
    expect(Object.keys(actor.getSnapshot().children)).toEqual(['updateCard']);
    actor.send({ type: 'card.dismissed' });
    actor.send({ type: 'card.submitted', card });
    expect(actor.getSnapshot().matches('updatingCard')).toBe(true);
    expect(updateSandboxCard).toHaveBeenCalledTimes(1);
    expect(told).toEqual([]);

    update.resolve('4242');
    await nextTick();
    // The tab shows the card on file anew.
    expect(told).toEqual([{ type: 'card.changed' }]);
    expect(actor.getSnapshot().matches('updated')).toBe(true);
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(false);
    expect(SUCCESS_NOTICE_MS).toBe(3000);
    clock.increment(2999);
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
  });

  it("a declined card keeps the dialog open with the server's text, or 'Failed to update card'; Cancel clears it", async () => {
    const { actor, told } = start();
    actor.send({ type: 'billing.requested', mode: 'sandbox' });
    actor.send({ type: 'card.submitted', card });
    update.reject(new Error('Your card was declined.'));
    await nextTick();
    expect(actor.getSnapshot().matches('editingCard')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context.error).toBe('Your card was declined.');

    updateSandboxCard.mockRejectedValue(new Error(''));
    actor.send({ type: 'card.submitted', card });
    expect(actor.getSnapshot().context.error).toBeNull();
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to update card');
    actor.send({ type: 'card.dismissed' });
    expect(actor.getSnapshot().context.error).toBeNull();
    // The card on file did not change.
    expect(told).toEqual([]);
  });

  it('"Manage billing" during the message is handled as from idle', async () => {
    const { actor } = start();
    actor.send({ type: 'billing.requested', mode: 'sandbox' });
    actor.send({ type: 'card.submitted', card });
    update.resolve('4242');
    await nextTick();
    actor.send({ type: 'billing.requested', mode: 'sandbox' });
    expect(actor.getSnapshot().matches('editingCard')).toBe(true);
    update = deferred<string>();
    updateSandboxCard.mockReturnValue(update.promise);
    actor.send({ type: 'card.submitted', card });
    update.resolve('4242');
    await nextTick();
    actor.send({ type: 'billing.requested', mode: 'stripe' });
    expect(actor.getSnapshot().matches('openingPortal')).toBe(true);
  });
});
