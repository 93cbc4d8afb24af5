import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromPromise } from 'xstate';
import { legalDocumentMachine } from '../../machines/legalDocument.machine';
import { ApiError } from '../../machines/services/errors';
import type { LegalDocument } from '../../machines/services/legal';
import { legalDocuments, type LegalDocumentKind } from '../../machines/rules/legalDocuments';
import { prerender } from '../../src/entry-server';
import { legalDocumentModel } from '../models/legalDocument.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { hydrateApp, renderApp } from '../support/renderApp';

const served: LegalDocument = {
  title: 'Server Title',
  content: '## Section one\n\nWe keep your data for as long as your account exists.\n\n[Write to us](mailto:support@carnivo.app)',
};

/** The text a prerendered page carries (a different title, so the screen shows which one it is). */
const prerenderedText: LegalDocument = { ...served, title: 'Prerendered Title' };

/** SPEC §2 and §8, word for word. */
const pages: Record<LegalDocumentKind, { name: string; error: string }> = {
  privacyPolicy: { name: 'Privacy Policy', error: 'Failed to load Privacy Policy' },
  terms: { name: 'Terms and Conditions', error: 'Failed to load Terms and Conditions' },
  refundPolicy: { name: 'Refund Policy', error: 'Failed to load Refund Policy' },
};
const LAST_UPDATED = 'Last Updated: May 16, 2025';

async function openLegalPage(kind: LegalDocumentKind, inspect: Inspect, prerendered?: LegalDocument) {
  // React reports the server's markup and failed loads on the console.
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const fetchCalls = deferredCalls<{ document: LegalDocumentKind }, LegalDocument>();
  const legalDocument = legalDocumentMachine.provide({
    actors: {
      fetchDocument: fromPromise<LegalDocument, { document: LegalDocumentKind }>(({ input }) => fetchCalls.handler(input)),
    },
  });
  const { route, titleField } = legalDocuments[kind];
  if (!prerendered) return { ...renderApp(route, { flows: { legalDocument }, inspect }), fetchCalls, mismatches: [] as unknown[] };
  // The page as the server renders it (the same entry the server's bundle is built from), then hydrated.
  const page = await prerender(route, async () => ({ [titleField]: prerendered.title, Content: prerendered.content }));
  if (!('html' in page)) throw new Error(`${route} was not prerendered: ${JSON.stringify(page)}`);
  return { ...(await hydrateApp(route, page, { flows: { legalDocument }, inspect })), fetchCalls };
}
type Page = Awaited<ReturnType<typeof openLegalPage>>;

const main = () => within(screen.getByRole('main'));

/** What every legal page shows, in every state: its tab title and the way back home. */
async function expectLegalPage(kind: LegalDocumentKind) {
  await see(`the tab title 'Carnivo - ${pages[kind].name}'`, () => expect(document.title).toBe(`Carnivo - ${pages[kind].name}`));
  await see("the link '← Back to Home'", () => expect(main().getByRole('link', { name: '← Back to Home' }).getAttribute('href')).toBe('/'));
}

async function expectLoading(kind: LegalDocumentKind, page: Page, requests: number) {
  await expectLegalPage(kind);
  await see("the status 'Loading...'", () => expect(main().getByRole('status').textContent).toBe('Loading...'));
  expect(main().getByRole('heading', { level: 1 }).textContent).toBe(pages[kind].name);
  expect(main().queryByRole('alert')).toBeNull();
  expect(main().queryByText(LAST_UPDATED)).toBeNull();
  expect(page.fetchCalls.calls.map((call) => call.input)).toEqual(Array(requests).fill({ document: kind }));
}

async function expectText(kind: LegalDocumentKind, title: string) {
  await expectLegalPage(kind);
  await see(`the heading '${title}'`, () => main().getByRole('heading', { level: 1, name: title }));
  main().getByText(LAST_UPDATED);
  // Fetched inside the app, the text renders once the markdown chunk has loaded.
  await see("the text's heading 'Section one'", () => main().getByRole('heading', { level: 2, name: 'Section one' }));
  main().getByText('We keep your data for as long as your account exists.');
  expect(main().getByRole('link', { name: 'Write to us' }).getAttribute('href')).toBe('mailto:support@carnivo.app');
  expect(main().queryByRole('alert')).toBeNull();
  expect(main().queryByRole('status')).toBeNull();
}

describe('legalDocument: the spec model replayed against the legal pages', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  for (const kind of Object.keys(pages) as LegalDocumentKind[]) {
    const { route } = legalDocuments[kind];
    describe(route, () => {
      definePathTests<Page>({
        flow: `legalDocument ${route}`,
        machine: legalDocumentMachine,
        model: legalDocumentModel,
        open: {
          'page.opened': (inspect) => openLegalPage(kind, inspect),
          'page.openedPrerendered': (inspect) => openLegalPage(kind, inspect, prerenderedText),
        },
        perform: {
          'server.served': (page) => page.fetchCalls.last().settle.resolve(served),
          'server.failed': (page) => page.fetchCalls.last().settle.reject(new ApiError('Internal Server Error', 500)),
          'retry.clicked': () => userEvent.click(main().getByRole('button', { name: 'Retry' })),
        },
        screens: {
          loading: (page) => expectLoading(kind, page, 1),
          reloading: (page) => expectLoading(kind, page, 2),
          loaded: () => expectText(kind, served.title),
          prerendered: async (page) => {
            await expectText(kind, prerenderedText.title);
            // The text came with the page and hydrated cleanly; nothing was asked of the server.
            expect(page.fetchCalls.calls).toHaveLength(0);
            expect(page.mismatches).toEqual([]);
          },
          failed: async () => {
            await expectLegalPage(kind);
            // The page's own text of SPEC §8, whatever the server said.
            await see(`the alert '${pages[kind].error}'`, () => expect(main().getByRole('alert').textContent).toBe(pages[kind].error));
            main().getByRole('button', { name: 'Retry' });
            expect(main().queryByRole('status')).toBeNull();
            expect(main().queryByText(LAST_UPDATED)).toBeNull();
          },
        },
      });
    });
  }

  it('asks the server again on Retry and shows the second answer', async () => {
    const page = await openLegalPage('terms', () => {});
    await screen.findByRole('status');
    page.fetchCalls.last().settle.reject(new ApiError('Bad Gateway', 502));
    await userEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    expect(page.fetchCalls.calls).toHaveLength(2);
    page.fetchCalls.last().settle.resolve({ title: 'Terms and Conditions', content: 'Fine print.' });
    await screen.findByText('Fine print.');
  });
});
