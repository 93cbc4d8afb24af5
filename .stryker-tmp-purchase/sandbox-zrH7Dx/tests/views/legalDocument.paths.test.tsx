// @ts-nocheck
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromPromise, type AnyEventObject, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { legalDocumentMachine } from '../../machines/legalDocument.machine';
import { ApiError } from '../../src/api/errors';
import type { LegalDocument } from '../../src/api/legal';
import { LEGAL_LAST_UPDATED, legalDocuments, type LegalDocumentKind } from '../../src/lib/legalDocuments';
import { deferredCalls } from '../support/deferred';
import { describePath, leafStateIds, transitionCoveringPaths, type ModelPath } from '../support/modelPaths';
import { prerender } from '../../src/entry-server';
import { hydrateApp, renderApp } from '../support/renderApp';

const served: LegalDocument = {
  title: 'Server Title',
  content: '## Section one\n\nWe keep your data for as long as your account exists.\n\n[Write to us](mailto:support@carnivo.app)',
};

/** The text a prerendered page carries (a different title, so the screen shows which one it is). */
const prerenderedText: LegalDocument = { ...served, title: 'Prerendered Title' };

const events: AnyEventObject[] = [
  { type: 'xstate.done.actor.fetchDocument', output: served },
  { type: 'xstate.error.actor.fetchDocument', error: new ApiError('Internal Server Error', 500) },
  { type: 'retry' },
];

const kinds = Object.keys(legalDocuments) as LegalDocumentKind[];

async function renderLegalPage(kind: LegalDocumentKind, prerendered?: LegalDocument) {
  const fetchCalls = deferredCalls<{ document: LegalDocumentKind }, LegalDocument>();
  const legalDocument = legalDocumentMachine.provide({
    actors: {
      fetchDocument: fromPromise<LegalDocument, { document: LegalDocumentKind }>(({ input }) => fetchCalls.handler(input)),
    },
  });
  const spec = legalDocuments[kind];
  if (!prerendered) return { ...renderApp(spec.route, { flows: { legalDocument } }), fetchCalls, mismatches: [] };
  // The page as the server renders it (the same entry the server's bundle is built from), then hydrated.
  const page = await prerender(spec.route, async () => ({ [spec.titleField]: prerendered.title, Content: prerendered.content }));
  if (!('html' in page)) throw new Error(`${spec.route} was not prerendered: ${JSON.stringify(page)}`);
  return { ...(await hydrateApp(spec.route, page, { flows: { legalDocument } })), fetchCalls };
}

type Page = Awaited<ReturnType<typeof renderLegalPage>>;

async function perform(event: AnyEventObject, page: Page) {
  switch (event.type) {
    case 'xstate.done.actor.fetchDocument':
      page.fetchCalls.last().settle.resolve(event.output as LegalDocument);
      return;
    case 'xstate.error.actor.fetchDocument':
      page.fetchCalls.last().settle.reject(event.error);
      return;
    case 'retry':
      await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
      return;
    default:
      throw new Error(`No way to perform ${event.type}`);
  }
}

async function expectScreen(state: AnyMachineSnapshot, kind: LegalDocumentKind, page: Page) {
  const spec = legalDocuments[kind];
  const main = within(await screen.findByRole('main'));
  await waitFor(() => expect(document.title).toBe(`Carnivo - ${spec.pageName}`));
  expect(main.getByRole('link', { name: '← Back to Home' }).getAttribute('href')).toBe('/');
  if (state.matches('loading')) {
    await main.findByRole('status');
    expect(main.getByRole('status').textContent).toBe('Loading...');
    expect(main.getByRole('heading', { level: 1 }).textContent).toBe(spec.pageName);
    expect(main.queryByRole('alert')).toBeNull();
    expect(main.queryByText(LEGAL_LAST_UPDATED)).toBeNull();
    expect(page.fetchCalls.last().input).toEqual({ document: kind });
  } else if (state.matches('loaded')) {
    await main.findByRole('heading', { level: 1, name: state.context.title });
    // Prerendered: the text came with the page and hydrated cleanly; nothing was asked of the server.
    if (state.context.title === prerenderedText.title) {
      expect(page.fetchCalls.calls).toHaveLength(0);
      expect(page.mismatches).toEqual([]);
    }
    main.getByText(LEGAL_LAST_UPDATED);
    main.getByRole('heading', { level: 2, name: 'Section one' });
    main.getByText('We keep your data for as long as your account exists.');
    expect(main.getByRole('link', { name: 'Write to us' }).getAttribute('href')).toBe('mailto:support@carnivo.app');
    expect(main.queryByRole('alert')).toBeNull();
    expect(main.queryByRole('status')).toBeNull();
  } else {
    expect((await main.findByRole('alert')).textContent).toBe(spec.errorText);
    expect(state.context.error).toBe(spec.errorText);
    main.getByRole('button', { name: 'Retry' });
    expect(main.queryByRole('status')).toBeNull();
    expect(main.queryByText(LEGAL_LAST_UPDATED)).toBeNull();
  }
}

describe('legalDocument machine: model-based paths replayed against the legal pages', () => {
  // Two starts per page: reached inside the app (fetches), and prerendered (starts loaded).
  const pathsByKind = kinds.flatMap((kind) =>
    [undefined, prerenderedText].map(
      (prerendered) =>
        [
          kind,
          prerendered,
          // A prerendered page rests where it starts (loaded): its one path is that first screen.
          prerendered
            ? getShortestPaths(legalDocumentMachine as AnyStateMachine, { events, input: { document: kind, prerendered } })
            : transitionCoveringPaths(legalDocumentMachine, { events, input: { document: kind } }),
        ] as const,
    ),
  );

  it('reaches every state and takes every event', () => {
    for (const kind of kinds) {
      const paths = pathsByKind.filter(([pathKind]) => pathKind === kind).flatMap(([, , kindPaths]) => kindPaths);
      const reached = new Set(paths.flatMap((path) => path.steps.flatMap(({ state }) => state._nodes.map((node: { id: string }) => node.id))));
      expect(leafStateIds(legalDocumentMachine).filter((id) => !reached.has(id))).toEqual([]);
      const taken = new Set(paths.flatMap((path) => path.steps.slice(1).map((step) => step.event.type)));
      expect(events.map((event) => event.type).filter((type) => !taken.has(type))).toEqual([]);
    }
  });

  it('uses the error texts of SPEC §8', () => {
    expect(kinds.map((kind) => legalDocuments[kind].errorText)).toEqual([
      'Failed to load Privacy Policy',
      'Failed to load Terms and Conditions',
      'Failed to load Refund Policy',
    ]);
  });

  const cases = pathsByKind.flatMap(([kind, prerendered, paths]) =>
    paths.map((path): [string, LegalDocumentKind, LegalDocument | undefined, ModelPath] => [
      `${legalDocuments[kind].route}${prerendered ? ' (prerendered)' : ''}: ${describePath(path) || 'as served'}`,
      kind,
      prerendered,
      path,
    ]),
  );

  it.each(cases)('%s', async (_name, kind, prerendered, path) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const page = await renderLegalPage(kind, prerendered);
    await expectScreen(path.steps[0].state, kind, page);
    for (const step of path.steps.slice(1)) {
      await perform(step.event, page);
      await expectScreen(step.state, kind, page);
    }
  });

  it('asks the server again on Retry and shows the second answer', async () => {
    const page = await renderLegalPage('terms');
    await screen.findByRole('status');
    page.fetchCalls.last().settle.reject(new ApiError('Bad Gateway', 502));
    await userEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    expect(page.fetchCalls.calls).toHaveLength(2);
    page.fetchCalls.last().settle.resolve({ title: 'Terms and Conditions', content: 'Fine print.' });
    await screen.findByText('Fine print.');
  });
});
