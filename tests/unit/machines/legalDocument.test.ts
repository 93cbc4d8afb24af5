import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { LegalDocument } from '../../../machines/services/legal';
import { legalDocumentMachine } from '../../../machines/legalDocument.machine';
import { legalDocuments, type LegalDocumentKind } from '../../../machines/rules/legalDocuments';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';

/** The API double: the document asked for, with the actor's signal; each test sets what it answers. */
const fetchDocument = vi.fn<(input: { document: LegalDocumentKind }, signal: AbortSignal) => Promise<LegalDocument>>();
const machine = legalDocumentMachine.provide({
  actors: {
    fetchDocument: fromPromise<LegalDocument, { document: LegalDocumentKind }>(({ input, signal }) => fetchDocument(input, signal)),
  },
});

let response: Deferred<LegalDocument>;

beforeEach(() => {
  response = deferred<LegalDocument>();
  fetchDocument.mockReset().mockReturnValue(response.promise);
});

const privacy = { title: 'Carnivo Privacy Policy', content: '## What we collect' };

describe('legalDocument (SPEC §2 Legal pages, §4 Legal page, §7, §8)', () => {
  it('loads the document from its own path (busy), then shows the server title and body', async () => {
    const actor = createActor(machine, { input: { document: 'privacyPolicy' } }).start();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(fetchDocument).toHaveBeenCalledWith({ document: 'privacyPolicy' }, expect.any(AbortSignal));

    response.resolve(privacy);
    await nextTick();
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches('loaded')).toBe(true);
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context).toMatchObject({ title: privacy.title, content: privacy.content, error: null });
  });

  it.each([
    ['privacyPolicy' as const, '/api/privacy-policy', 'Failed to load Privacy Policy'],
    ['terms' as const, '/api/terms-and-condition', 'Failed to load Terms and Conditions'],
    ['refundPolicy' as const, '/api/refund-policy', 'Failed to load Refund Policy'],
  ])('%s: calls %s and on failure shows %j, whatever the server said', async (document, apiPath, message) => {
    const actor = createActor(machine, { input: { document } }).start();
    expect(fetchDocument).toHaveBeenCalledWith({ document }, expect.any(AbortSignal));
    expect(legalDocuments[document].apiPath).toBe(apiPath);
    response.reject(new Error('Internal Server Error'));
    await nextTick();
    expect(actor.getSnapshot().matches('error')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe(message);
  });

  it('Retry returns to loading and can then succeed', async () => {
    const actor = createActor(machine, { input: { document: 'terms' } }).start();
    response.reject(new Error('offline'));
    await nextTick();

    const retried = deferred<LegalDocument>();
    fetchDocument.mockReturnValue(retried.promise);
    actor.send({ type: 'retry' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(fetchDocument).toHaveBeenCalledTimes(2);

    retried.resolve({ title: 'Terms', content: 'Be kind.' });
    await nextTick();
    expect(actor.getSnapshot().matches('loaded')).toBe(true);
    expect(actor.getSnapshot().context.content).toBe('Be kind.');
  });

  it('starts loaded, without a call, from the text the server prerendered', () => {
    const actor = createActor(machine, { input: { document: 'privacyPolicy', prerendered: privacy } }).start();
    expect(actor.getSnapshot().matches('loaded')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ title: privacy.title, content: privacy.content, error: null });
    expect(fetchDocument).not.toHaveBeenCalled();
  });

  it('loads when the prerendered page had no body', () => {
    const actor = createActor(machine, {
      input: { document: 'refundPolicy', prerendered: { title: 'Refund Policy', content: '' } },
    }).start();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
  });

  it('has no title or body before the first answer', () => {
    const actor = createActor(machine, { input: { document: 'terms' } }).start();
    expect(actor.getSnapshot().context).toMatchObject({ title: '', content: '', error: null });
  });
});
