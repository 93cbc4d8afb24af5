import { apiClient } from './client';
import { ApiError, toApiError } from './errors';
import type { LegalDocumentSpec } from '../lib/legalDocuments';

export type LegalDocument = { title: string; content: string };

type StrapiSingle = { data?: Record<string, unknown> | null };

/**
 * The page's title and markdown from the single type's data: data.Text or data.Title as the title,
 * data.Content as the body. Null when there is no body. The server's prerendering reads it the same way.
 */
export function legalDocumentFrom(
  spec: Pick<LegalDocumentSpec, 'titleField' | 'pageName'>,
  data: Record<string, unknown> | null | undefined,
): LegalDocument | null {
  const title = data?.[spec.titleField];
  const content = data?.Content;
  if (typeof content !== 'string') return null;
  return { title: typeof title === 'string' && title.trim() ? title : spec.pageName, content };
}

/**
 * GET /api/privacy-policy, /api/terms-and-condition or /api/refund-policy (SPEC §7).
 * Reads data.Text or data.Title as the title and data.Content as the markdown body; a failure is
 * logged to the console and rethrown (SPEC §8).
 */
export async function fetchLegalDocument(
  spec: Pick<LegalDocumentSpec, 'apiPath' | 'titleField' | 'errorText' | 'pageName'>,
  { signal }: { signal?: AbortSignal } = {},
): Promise<LegalDocument> {
  try {
    const response = await apiClient<StrapiSingle>(spec.apiPath, { signal });
    const document = legalDocumentFrom(spec, response?.data);
    if (!document) throw new ApiError(spec.errorText);
    return document;
  } catch (error) {
    const failure = toApiError(error, spec.errorText);
    if (!(failure instanceof DOMException)) console.error(`${spec.errorText}:`, error);
    throw failure;
  }
}
