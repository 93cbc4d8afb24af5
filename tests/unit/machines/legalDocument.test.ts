import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { fetchLegalDocument, type LegalDocument } from '../../../machines/services/legal';
import { legalDocumentMachine } from '../../../machines/legalDocument.machine';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';

vi.mock('../../../machines/services/legal', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../machines/services/legal')>()),
  fetchLegalDocument: vi.fn(),
}));

let response: Deferred<LegalDocument>;

beforeEach(() => {
  response = deferred<LegalDocument>();
  vi.mocked(fetchLegalDocument).mockReset().mockReturnValue(response.promise);
});

const privacy = { title: 'Carnivo Privacy Policy', content: '## What we collect' };

describe('legalDocument (SPEC §2 Legal pages, §4 Legal page, §7, §8)', () => {
  it('loads the document from its own path (busy), then shows the server title and body', async () => {
    const actor = createActor(legalDocumentMachine, { input: { document: 'privacyPolicy' } }).start();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(fetchLegalDocument).toHaveBeenCalledWith(
      expect.objectContaining({ apiPath: '/api/privacy-policy', errorText: 'Failed to load Privacy Policy' }),
      { signal: expect.any(AbortSignal) },
    );

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
    const actor = createActor(legalDocumentMachine, { input: { document } }).start();
    expect(vi.mocked(fetchLegalDocument).mock.calls[0][0].apiPath).toBe(apiPath);
    response.reject(new Error('Internal Server Error'));
    await nextTick();
    expect(actor.getSnapshot().matches('error')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe(message);
  });

  it('Retry returns to loading and can then succeed', async () => {
    const actor = createActor(legalDocumentMachine, { input: { document: 'terms' } }).start();
    response.reject(new Error('offline'));
    await nextTick();

    const retried = deferred<LegalDocument>();
    vi.mocked(fetchLegalDocument).mockReturnValue(retried.promise);
    actor.send({ type: 'retry' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(fetchLegalDocument).toHaveBeenCalledTimes(2);

    retried.resolve({ title: 'Terms', content: 'Be kind.' });
    await nextTick();
    expect(actor.getSnapshot().matches('loaded')).toBe(true);
    expect(actor.getSnapshot().context.content).toBe('Be kind.');
  });

  it('starts loaded, without a call, from the text the server prerendered', () => {
    const actor = createActor(legalDocumentMachine, { input: { document: 'privacyPolicy', prerendered: privacy } }).start();
    expect(actor.getSnapshot().matches('loaded')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ title: privacy.title, content: privacy.content, error: null });
    expect(fetchLegalDocument).not.toHaveBeenCalled();
  });

  it('loads when the prerendered page had no body', () => {
    const actor = createActor(legalDocumentMachine, {
      input: { document: 'refundPolicy', prerendered: { title: 'Refund Policy', content: '' } },
    }).start();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
  });

  it('has no title or body before the first answer', () => {
    const actor = createActor(legalDocumentMachine, { input: { document: 'terms' } }).start();
    expect(actor.getSnapshot().context).toMatchObject({ title: '', content: '', error: null });
  });
});
