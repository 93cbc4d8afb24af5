import { afterEach, describe, expect } from 'vitest';
import { screen, within } from '@testing-library/react';
import { billingHistoryMachine } from '../../machines/billingHistory.machine';
import { billingMessages, type Invoice } from '../../server/src/contract/billing';
import type { InvoicePage } from '../../machines/services/billing';
import { ApiError } from '../../machines/services/errors';
import { formatDate } from '../../machines/rules/dates';
import { billingHistoryModel } from '../models/billingHistory.model';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { restoreProfileHarness } from '../support/profileHarness';
import { activeSubscription } from '../support/subscriptionFixtures';
import { called, cancelDialog, showSubscriptionsTab, subscriptionsTab, type SubscriptionsTabPage } from '../support/subscriptionsTab';

// Midday UTC: the same calendar day in every time zone.
const newest: Invoice = {
  id: 'in_3',
  date: '2026-12-01T12:00:00.000Z',
  amount: 999,
  currency: 'usd',
  status: 'paid',
  periodStart: '2026-12-01T12:00:00.000Z',
  periodEnd: '2027-01-01T12:00:00.000Z',
  receiptUrl: 'https://invoice.stripe.com/i/in_3',
  pdfUrl: 'https://pay.stripe.com/invoice/in_3/pdf',
  refunded: false,
  paidAt: null,
  subscriptionId: null,
};
// The sandbox's kind: its own receipt page, no PDF, no period.
const older: Invoice = {
  ...newest,
  id: 'in_2',
  date: '2026-11-01T12:00:00.000Z',
  status: 'open',
  periodStart: null,
  periodEnd: null,
  receiptUrl: '/api/payments/sandbox/receipts/in_2',
  pdfUrl: null,
};
const oldest: Invoice = { ...newest, id: 'in_1', date: '2026-10-01T12:00:00.000Z', amount: 7999, receiptUrl: null, pdfUrl: null };

type Page = SubscriptionsTabPage & { loadsBefore: number };

const open = (inspect: Inspect): Promise<Page> =>
  showSubscriptionsTab({ inspect, current: activeSubscription, answerHistory: false }, { loadsBefore: 0 });

const history = () => within(screen.getByRole('region', { name: 'Billing history' }));
const rows = () => history().queryAllByRole('listitem');

/** Answers the next invoices call, which must ask for `pageNumber`. */
async function answer(page: Page, pageNumber: number, result: InvoicePage | Error) {
  await called('the invoices load', page.invoiceLoads.calls, page.loadsBefore + 1);
  expect(page.invoiceLoads.last().input).toEqual({ page: pageNumber });
  page.loadsBefore = page.invoiceLoads.calls.length;
  if (result instanceof Error) page.invoiceLoads.last().settle.reject(result);
  else page.invoiceLoads.last().settle.resolve(result);
}

/** The rows shown, in order, each as a person reads it. */
async function expectInvoices(expected: Invoice[]) {
  await see(`${expected.length} invoices`, () => expect(rows()).toHaveLength(expected.length));
  expected.forEach((invoice, index) => {
    const row = within(rows()[index]);
    const text = rows()[index].textContent ?? '';
    expect(text).toContain(formatDate(invoice.date));
    expect(text).toContain(invoice.amount === 999 ? '$9.99' : '$79.99');
    expect(row.getByText(invoice.status).className).toContain(
      invoice.status === 'paid' ? 'invoice__status--paid' : 'invoice__status--unpaid',
    );
    if (invoice.periodStart && invoice.periodEnd)
      expect(text).toContain(`${formatDate(invoice.periodStart)} – ${formatDate(invoice.periodEnd)}`);
    for (const [name, url] of [
      ['Receipt', invoice.receiptUrl],
      ['PDF', invoice.pdfUrl],
    ] as const) {
      const link = row.queryByRole('link', { name });
      expect(link?.getAttribute('href') ?? null).toBe(url);
      if (link) {
        expect(link.getAttribute('target')).toBe('_blank');
        expect(link.getAttribute('rel')).toBe('noopener noreferrer');
        // The row's date tells one invoice's links from another's.
        expect(link.getAttribute('aria-describedby') && document.getElementById(link.getAttribute('aria-describedby')!)?.textContent).toBe(
          formatDate(invoice.date),
        );
      }
    }
  });
}

async function expectControls({ more, alert }: { more: 'Show more' | 'Loading...' | null; alert: string | null }) {
  await see(more ? `the button '${more}'` : "no 'Show more'", () => {
    const button = history().queryByRole('button', { name: /Show more|Loading\.\.\./ }) as HTMLButtonElement | null;
    expect(button?.textContent ?? null).toBe(more);
    if (button) expect(button.disabled).toBe(more === 'Loading...');
  });
  await see(alert ? `the alert '${alert}' with Retry` : 'no alert', () => {
    const shown = history().queryByRole('alert');
    expect(shown?.querySelector('p')?.textContent ?? null).toBe(alert);
    if (shown) within(shown).getByRole('button', { name: 'Retry' });
  });
}

const FAILED = billingMessages.invoicesFailed;

describe('billingHistory: the issue 11 model replayed against the Subscriptions tab', () => {
  afterEach(restoreProfileHarness);

  definePathTests<Page>({
    flow: 'billingHistory',
    machine: billingHistoryMachine,
    model: billingHistoryModel,
    open: { 'profile.opened': open },
    perform: {
      'server.answeredNone': (page) => answer(page, 1, { invoices: [], hasMore: false }),
      'server.answeredOnePage': (page) => answer(page, 1, { invoices: [newest, older, oldest], hasMore: false }),
      'server.answeredFirstOfTwo': (page) => answer(page, 1, { invoices: [newest], hasMore: true }),
      'server.answeredSecondPage': (page) => answer(page, 2, { invoices: [older, oldest], hasMore: false }),
      'server.failed': (page) => answer(page, page.invoiceLoads.last().input.page, new ApiError(FAILED, 500)),
      'more.clicked': (page) => page.user.click(history().getByRole('button', { name: 'Show more' })),
      'retry.clicked': (page) => page.user.click(within(history().getByRole('alert')).getByRole('button', { name: 'Retry' })),
      'subscription.cancelled': async (page) => {
        const tab = within(subscriptionsTab());
        await page.user.click(tab.getByRole('button', { name: 'Unsubscribe' }));
        await page.user.click(within(cancelDialog()!).getByRole('button', { name: 'Yes, Cancel' }));
        page.cancels.last().settle.resolve({ cancelAt: activeSubscription.currentPeriodEnd });
      },
    },
    screens: {
      loading: async (page) => {
        await see("'Loading billing history…'", () => history().getByText('Loading billing history…'));
        expect(rows()).toHaveLength(0);
        await expectControls({ more: null, alert: null });
        // Opening (or a change) asks for the first page.
        await called('the invoices load', page.invoiceLoads.calls, page.loadsBefore + 1);
        expect(page.invoiceLoads.last().input).toEqual({ page: 1 });
      },
      empty: async () => {
        await see("'No invoices yet.'", () => history().getByText('No invoices yet.'));
        await expectControls({ more: null, alert: null });
      },
      loaded: async () => {
        await expectInvoices([newest, older, oldest]);
        await expectControls({ more: null, alert: null });
        expect(history().queryByText('No invoices yet.')).toBeNull();
      },
      firstPage: async () => {
        await expectInvoices([newest]);
        await expectControls({ more: 'Show more', alert: null });
      },
      loadingMore: async () => {
        await expectInvoices([newest]);
        await expectControls({ more: 'Loading...', alert: null });
      },
      allPages: async () => {
        await expectInvoices([newest, older, oldest]);
        await expectControls({ more: null, alert: null });
      },
      failed: async () => {
        await expectControls({ more: null, alert: FAILED });
        expect(rows()).toHaveLength(0);
        expect(history().queryByText('No invoices yet.')).toBeNull();
      },
      moreFailed: async () => {
        await expectControls({ more: null, alert: FAILED });
        await expectInvoices([newest]);
      },
    },
  });
});
