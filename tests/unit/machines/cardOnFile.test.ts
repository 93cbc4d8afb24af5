import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { cardOnFileMachine } from '../../../machines/cardOnFile.machine';
import type { CardOnFile } from '../../../server/src/contract/billing';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';

const visa: CardOnFile = { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 };
const mastercard: CardOnFile = { brand: 'mastercard', last4: '4444', expMonth: 3, expYear: 2031 };

let loads: Deferred<CardOnFile | null>[];
let signals: AbortSignal[];

/** The API double: each load, with the actor's signal; the test settles it. */
const loadCard = vi.fn<(signal: AbortSignal) => Promise<CardOnFile | null>>();

beforeEach(() => {
  loads = [];
  signals = [];
  loadCard.mockReset().mockImplementation((signal) => {
    const load = deferred<CardOnFile | null>();
    loads.push(load);
    signals.push(signal);
    return load.promise;
  });
});

const machine = cardOnFileMachine.provide({ actors: { loadCard: fromPromise<CardOnFile | null>(({ signal }) => loadCard(signal)) } });
const start = () => createActor(machine).start();

describe('cardOnFile (issue 21: the card on file in Billing)', () => {
  it('loads the card at once, busy, and shows it', async () => {
    const actor = start();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ card: null, error: null });
    expect(loadCard).toHaveBeenCalledExactlyOnceWith(expect.any(AbortSignal));
    expect(Object.keys(actor.getSnapshot().children)).toEqual(['loadCard']);

    loads[0].resolve(visa);
    await nextTick();
    expect(actor.getSnapshot().matches('loaded')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context).toEqual({ card: visa, error: null });
  });

  it('shows no card when none is saved', async () => {
    const actor = start();
    loads[0].resolve(null);
    await nextTick();
    expect(actor.getSnapshot().matches('loaded')).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ card: null, error: null });
  });

  it('loads again on a change, keeping the card shown until the new one is in', async () => {
    const actor = start();
    loads[0].resolve(visa);
    await nextTick();
    actor.send({ type: 'card.changed' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().context.card).toEqual(visa);
    expect(loadCard).toHaveBeenCalledTimes(2);
    loads[1].resolve(mastercard);
    await nextTick();
    expect(actor.getSnapshot().context).toEqual({ card: mastercard, error: null });
  });

  it('a change during a load drops the answer on its way and asks again', async () => {
    const actor = start();
    actor.send({ type: 'card.changed' });
    expect(signals[0].aborted).toBe(true);
    expect(signals[1].aborted).toBe(false);
    loads[0].resolve(visa);
    await nextTick();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().context.card).toBeNull();
    loads[1].resolve(mastercard);
    await nextTick();
    expect(actor.getSnapshot().context.card).toEqual(mastercard);
  });

  it("a failed load says so (the server's text, or 'Failed to load your card on file'), keeps the card, and Retry asks again", async () => {
    const actor = start();
    loads[0].resolve(visa);
    await nextTick();
    actor.send({ type: 'card.retried' });
    expect(actor.getSnapshot().matches('loaded')).toBe(true);
    expect(loadCard).toHaveBeenCalledTimes(1);

    actor.send({ type: 'card.changed' });
    loads[1].reject(new Error('The payment service could not complete the request.'));
    await nextTick();
    expect(actor.getSnapshot().matches('failure')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context).toEqual({ card: visa, error: 'The payment service could not complete the request.' });

    actor.send({ type: 'card.retried' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    loads[2].reject(new Error(''));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to load your card on file');

    actor.send({ type: 'card.retried' });
    loads[3].resolve(mastercard);
    await nextTick();
    expect(actor.getSnapshot().matches('loaded')).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ card: mastercard, error: null });
  });
});
