import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { billingMessages, type Invoice } from '../../server/src/contract/billing';
import {
  EXPORT_FILENAME,
  attachmentName,
  exportAccount,
  getCardOnFile,
  getInvoices,
  openBillingPortal,
  resumeSubscription,
  updateSandboxCard,
} from '../../machines/services/billing';
import { configureApiClient } from '../../machines/services/sessionHooks';
import { downloadFile } from '../../src/components/handOver';
import { activeSubscription } from '../support/subscriptionFixtures';

function stubFetch(respond: (request: Request) => Response | Promise<Response>) {
  const requests: Request[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(new URL(String(input instanceof Request ? input.url : input), 'http://localhost'), init);
    requests.push(request);
    return respond(request);
  });
  return requests;
}

const strapiError = (status: number, message: string) =>
  Response.json({ data: null, error: { status, name: 'Error', message } }, { status });

const invoice: Invoice = {
  id: 'in_1',
  date: '2026-11-01T12:00:00.000Z',
  amount: 999,
  currency: 'usd',
  status: 'paid',
  periodStart: null,
  periodEnd: null,
  receiptUrl: '/receipt/in_1',
  pdfUrl: null,
  refunded: false,
  paidAt: null,
  subscriptionId: null,
};

beforeEach(() => configureApiClient({ getToken: () => 'member-token', onUnauthorized: () => {} }));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  configureApiClient({ getToken: () => null, onUnauthorized: () => {} });
});

describe('machines/services/billing (issue 11)', () => {
  it('asks for a page of invoices with the bearer token and reads data and hasMore', async () => {
    const requests = stubFetch(() => Response.json({ data: [invoice], pagination: { page: 2, pageSize: 10, hasMore: true } }));
    await expect(getInvoices(2)).resolves.toEqual({ invoices: [invoice], hasMore: true });
    const url = new URL(requests[0].url);
    expect(url.pathname + url.search).toBe('/api/subscriptions/invoices?page=2');
    expect(requests[0].headers.get('Authorization')).toBe('Bearer member-token');
  });

  it('asks for the card on file with the bearer token and reads it, or null for none', async () => {
    const card = { brand: 'mastercard', last4: '4444', expMonth: 3, expYear: 2031 } as const;
    const requests = stubFetch(() => Response.json({ card }));
    await expect(getCardOnFile()).resolves.toEqual(card);
    expect([requests[0].method, new URL(requests[0].url).pathname]).toEqual(['GET', '/api/subscriptions/card']);
    expect(requests[0].headers.get('Authorization')).toBe('Bearer member-token');
    stubFetch(() => Response.json({ card: null }));
    await expect(getCardOnFile()).resolves.toBeNull();
    stubFetch(() => Response.json({}));
    await expect(getCardOnFile()).rejects.toMatchObject({ message: billingMessages.cardOnFileFailed });
    stubFetch(() => strapiError(502, 'The payment service could not complete the request.'));
    await expect(getCardOnFile()).rejects.toMatchObject({ message: 'The payment service could not complete the request.', status: 502 });
  });

  it("fails with the server's message, or the agreed fallback for an unusable answer", async () => {
    stubFetch(() => strapiError(400, 'Bad page'));
    await expect(getInvoices(1)).rejects.toMatchObject({ message: 'Bad page', status: 400 });
    stubFetch(() => Response.json({ nope: true }));
    await expect(getInvoices(1)).rejects.toMatchObject({ message: billingMessages.invoicesFailed });
    stubFetch(() => Response.json({}));
    await expect(openBillingPortal()).rejects.toMatchObject({ message: billingMessages.portalFailed });
    stubFetch(() => Response.json({ ok: false }));
    await expect(updateSandboxCard({ cardNumber: '1', expiry: '2', cvc: '3' })).rejects.toMatchObject({
      message: billingMessages.cardUpdateFailed,
    });
    stubFetch(() => new Response('Bad Gateway', { status: 502 }));
    await expect(resumeSubscription()).rejects.toMatchObject({ message: billingMessages.resumeFailed });
  });

  it('posts for the portal, the card and the resume', async () => {
    const requests = stubFetch((request) => {
      const path = new URL(request.url).pathname;
      if (path === '/api/subscriptions/portal') return Response.json({ url: 'https://billing.stripe.com/p/1' });
      if (path === '/api/payments/sandbox/card') return Response.json({ ok: true, last4: '4242' });
      return Response.json(activeSubscription);
    });
    await expect(openBillingPortal()).resolves.toBe('https://billing.stripe.com/p/1');
    const card = { cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' };
    await expect(updateSandboxCard(card)).resolves.toBe('4242');
    await expect(resumeSubscription()).resolves.toEqual(activeSubscription);
    expect(requests.map((request) => [request.method, new URL(request.url).pathname])).toEqual([
      ['POST', '/api/subscriptions/portal'],
      ['POST', '/api/payments/sandbox/card'],
      ['POST', '/api/subscriptions/resume'],
    ]);
    expect(await requests[1].json()).toEqual(card);
  });

  it('keeps the export file as sent, named after its Content-Disposition', async () => {
    const body = JSON.stringify({ exportedAt: 'now', account: { id: 7 } }, null, 2);
    const requests = stubFetch(
      () =>
        new Response(body, {
          headers: { 'Content-Type': 'application/json', 'Content-Disposition': 'attachment; filename="carnivo-data-7.json"' },
        }),
    );
    await expect(exportAccount()).resolves.toEqual({ filename: 'carnivo-data-7.json', text: body });
    expect(new URL(requests[0].url).pathname).toBe('/api/account/export');
    expect(requests[0].headers.get('Authorization')).toBe('Bearer member-token');
    stubFetch(() => new Response(body, { headers: { 'Content-Type': 'application/json' } }));
    await expect(exportAccount()).resolves.toEqual({ filename: EXPORT_FILENAME, text: body });
    expect(attachmentName('attachment; filename=plain.json')).toBe('plain.json');
    expect(attachmentName(null)).toBeNull();
  });

  it("a refused export reads the server's message from the text answer; a bare 429 gets the hourly limit's", async () => {
    stubFetch(() => strapiError(429, 'Slow down'));
    await expect(exportAccount()).rejects.toMatchObject({ message: 'Slow down', status: 429 });
    stubFetch(() => new Response('Too Many Requests', { status: 429 }));
    await expect(exportAccount()).rejects.toMatchObject({ message: billingMessages.exportLimit, status: 429 });
    stubFetch(() => new Response('oops', { status: 500 }));
    await expect(exportAccount()).rejects.toMatchObject({ message: billingMessages.exportFailed, status: 500 });
  });

  it('saves the export as a JSON download through an object URL', async () => {
    let saved: Blob | undefined;
    const createObjectURL = vi.fn((blob: Blob) => {
      saved = blob;
      return 'blob:export';
    });
    const revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
    const clicked: { href: string; download: string; attached: boolean }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download, attached: document.body.contains(this) });
    });
    downloadFile({ filename: 'carnivo-data-7.json', text: '{"a":1}' }, 'application/json');
    expect(clicked).toEqual([{ href: 'blob:export', download: 'carnivo-data-7.json', attached: true }]);
    expect(saved?.type).toBe('application/json');
    expect(await saved?.text()).toBe('{"a":1}');
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:export');
    expect(document.querySelectorAll('a[download]')).toHaveLength(0);
  });
});
