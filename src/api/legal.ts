import { apiClient } from './client';
import { ApiError, toApiError } from './errors';
import type { LegalDocumentSpec } from '../lib/legalDocuments';

export type LegalDocument = { title: string; content: string };

type StrapiSingle = { data?: Record<string, unknown> | null };

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
    const title = response?.data?.[spec.titleField];
    const content = response?.data?.Content;
    if (typeof content !== 'string') throw new ApiError(spec.errorText);
    return { title: typeof title === 'string' && title.trim() ? title : spec.pageName, content };
  } catch (error) {
    const failure = toApiError(error, spec.errorText);
    if (!(failure instanceof DOMException)) console.error(`${spec.errorText}:`, error);
    throw failure;
  }
}
