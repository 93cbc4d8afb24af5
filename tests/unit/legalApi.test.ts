import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchLegalDocument } from '../../machines/services/legal';
import { ApiError } from '../../machines/services/errors';
import { legalDocuments } from '../../machines/rules/legalDocuments';

function stubFetch(respond: (url: URL) => Response) {
  const urls: URL[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    urls.push(url);
    return respond(url);
  });
  return urls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('legal API (SPEC §3, §7)', () => {
  it('reads data.Text and data.Content from GET /api/privacy-policy', async () => {
    const urls = stubFetch(() => Response.json({ data: { id: 1, documentId: 'd', Text: 'Privacy Policy', Content: '# Hi' }, meta: {} }));
    await expect(fetchLegalDocument(legalDocuments.privacyPolicy)).resolves.toEqual({ title: 'Privacy Policy', content: '# Hi' });
    expect(urls[0].pathname).toBe('/api/privacy-policy');
  });

  it.each([
    [legalDocuments.terms, '/api/terms-and-condition'],
    [legalDocuments.refundPolicy, '/api/refund-policy'],
  ])('reads data.Title and data.Content from GET %#', async (spec, path) => {
    const urls = stubFetch(() => Response.json({ data: { id: 2, documentId: 'e', Title: 'Served title', Content: 'Body' }, meta: {} }));
    await expect(fetchLegalDocument(spec)).resolves.toEqual({ title: 'Served title', content: 'Body' });
    expect(urls[0].pathname).toBe(path);
  });

  it('logs the failure to the console and rethrows it with the SPEC §8 fallback', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(() => new Response('oops', { status: 500 }));
    const failure = fetchLegalDocument(legalDocuments.terms);
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ message: 'Failed to load Terms and Conditions', status: 500 });
    expect(log).toHaveBeenCalled();
  });

  it('treats an answer without Content as a failure', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(() => Response.json({ data: null }));
    await expect(fetchLegalDocument(legalDocuments.refundPolicy)).rejects.toMatchObject({ message: 'Failed to load Refund Policy' });
  });
});
