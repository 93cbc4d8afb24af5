import type { SingleTypeResponse } from '../../server/src/contract/envelope';
import { apiRequest } from './client';
import type { LegalDocumentSpec } from '../rules/legalDocuments';

export type LegalDocument = { title: string; content: string };

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
export function fetchLegalDocument(
  spec: Pick<LegalDocumentSpec, 'apiPath' | 'titleField' | 'errorText' | 'pageName'>,
  { signal }: { signal?: AbortSignal } = {},
): Promise<LegalDocument> {
  return apiRequest<SingleTypeResponse, LegalDocument>(spec.apiPath, {
    fallback: spec.errorText,
    logAs: spec.errorText,
    read: (answer) => legalDocumentFrom(spec, answer?.data) ?? undefined,
    signal,
  });
}
