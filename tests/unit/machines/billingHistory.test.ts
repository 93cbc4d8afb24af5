import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { InvoicePage } from '../../../machines/services/billing';
import { billingHistoryMachine } from '../../../machines/billingHistory.machine';
import type { Invoice } from '../../../server/src/contract/billing';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';

const invoice = (id: string): Invoice => ({
  id,
  date: '2026-11-01T12:00:00.000Z',
  amount: 999,
  currency: 'usd',
  status: 'paid',
  periodStart: '2026-11-01T12:00:00.000Z',
  periodEnd: '2026-12-01T12:00:00.000Z',
  receiptUrl: `https://pay.example/${id}`,
  pdfUrl: null,
  refunded: false,
  paidAt: null,
  subscriptionId: null,
});

let pages: Deferred<InvoicePage>[];
/** The API double: each page asked for, with the actor's signal; the test settles it. */
const loadInvoices = vi.fn<(input: { page: number }, signal: AbortSignal) => Promise<InvoicePage>>();

beforeEach(() => {
  pages = [];
  loadInvoices.mockReset().mockImplementation(() => {
    const page = deferred<InvoicePage>();
    pages.push(page);
    return page.promise;
  });
});

const machine = billingHistoryMachine.provide({
  actors: { loadInvoices: fromPromise<InvoicePage, { page: number }>(({ input, signal }) => loadInvoices(input, signal)) },
});
const start = () => createActor(machine).start();

describe('billingHistory (issue 11: billing history on the Subscriptions tab)', () => {
  it('loads the first page at once, busy, and shows it', async () => {
    const actor = start();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ invoices: [], page: 0, hasMore: false, error: null });
    expect(loadInvoices).toHaveBeenCalledWith({ page: 1 }, expect.any(AbortSignal));
    expect(Object.keys(actor.getSnapshot().children)).toEqual(['loadInvoices']);

    pages[0].resolve({ invoices: [invoice('in_2'), invoice('in_1')], hasMore: false });
    await nextTick();
    expect(actor.getSnapshot().matches('loaded')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context).toEqual({ invoices: [invoice('in_2'), invoice('in_1')], page: 1, hasMore: false, error: null });
  });

  it('"Show more" loads the next page after the last and appends it, only while there is more', async () => {
    const actor = start();
    pages[0].resolve({ invoices: [invoice('in_3')], hasMore: true });
    await nextTick();
    actor.send({ type: 'history.moreRequested' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().context.invoices).toEqual([invoice('in_3')]);
    expect(loadInvoices).toHaveBeenLastCalledWith({ page: 2 }, expect.any(AbortSignal));
    pages[1].resolve({ invoices: [invoice('in_2'), invoice('in_1')], hasMore: false });
    await nextTick();
    expect(actor.getSnapshot().context).toEqual({
      invoices: [invoice('in_3'), invoice('in_2'), invoice('in_1')],
      page: 2,
      hasMore: false,
      error: null,
    });
    actor.send({ type: 'history.moreRequested' });
    expect(actor.getSnapshot().matches('loaded')).toBe(true);
    expect(loadInvoices).toHaveBeenCalledTimes(2);
  });

  it("a failed page shows the server's text (or 'Failed to load billing history'), keeps what was shown, and Retry asks for that page again", async () => {
    const actor = start();
    pages[0].resolve({ invoices: [invoice('in_3')], hasMore: true });
    await nextTick();
    actor.send({ type: 'history.moreRequested' });
    pages[1].reject(new Error('Too many requests'));
    await nextTick();
    expect(actor.getSnapshot().matches('failure')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context).toEqual({ invoices: [invoice('in_3')], page: 1, hasMore: true, error: 'Too many requests' });
    actor.send({ type: 'history.moreRequested' });
    expect(loadInvoices).toHaveBeenCalledTimes(2);

    actor.send({ type: 'history.retried' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(loadInvoices).toHaveBeenLastCalledWith({ page: 2 }, expect.any(AbortSignal));
    pages[2].reject(new Error(''));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to load billing history');
    actor.send({ type: 'history.retried' });
    pages[3].resolve({ invoices: [invoice('in_2')], hasMore: false });
    await nextTick();
    expect(actor.getSnapshot().context).toEqual({ invoices: [invoice('in_3'), invoice('in_2')], page: 2, hasMore: false, error: null });
  });

  it('ignores Retry unless a page failed', async () => {
    const actor = start();
    actor.send({ type: 'history.retried' });
    expect(loadInvoices).toHaveBeenCalledTimes(1);
    pages[0].resolve({ invoices: [], hasMore: false });
    await nextTick();
    actor.send({ type: 'history.retried' });
    expect(actor.getSnapshot().matches('loaded')).toBe(true);
    expect(loadInvoices).toHaveBeenCalledTimes(1);
  });

  it('starts over from the first page when the subscription changed, dropping an answer still on its way', async () => {
    const actor = start();
    pages[0].resolve({ invoices: [invoice('in_1')], hasMore: true });
    await nextTick();
    actor.send({ type: 'history.moreRequested' });
    actor.send({ type: 'subscription.changed' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ invoices: [], page: 0, hasMore: false, error: null });
    expect(loadInvoices).toHaveBeenLastCalledWith({ page: 1 }, expect.any(AbortSignal));
    // The abandoned page-2 call was aborted and its answer is ignored.
    expect(loadInvoices.mock.calls[1][1].aborted).toBe(true);
    pages[1].resolve({ invoices: [invoice('stale')], hasMore: false });
    await nextTick();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    pages[2].resolve({ invoices: [invoice('in_2'), invoice('in_1')], hasMore: false });
    await nextTick();
    expect(actor.getSnapshot().context.invoices).toEqual([invoice('in_2'), invoice('in_1')]);

    // From a failure too.
    actor.send({ type: 'subscription.changed' });
    pages[3].reject(new Error('Down'));
    await nextTick();
    actor.send({ type: 'subscription.changed' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
