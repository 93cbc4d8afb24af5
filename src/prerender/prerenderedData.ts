import type { LegalDocument } from '../../machines/services/legal';
import type { LegalDocumentKind } from '../../machines/rules/legalDocuments';

/**
 * What the server rendered a public page with, handed to the browser in the page (a JSON script)
 * so the first client render is the same and needs no request: the legal text and the site's origin.
 */
export type PrerenderedData = {
  /** The route's own path the HTML was rendered for (e.g. /about, whatever case or slash was asked). */
  path: string;
  legal?: { kind: LegalDocumentKind; document: LegalDocument };
  /** The site's public origin (the server's PUBLIC_URL): structured data names the site by it. */
  publicUrl?: string;
};

/** The id of the JSON script that carries PrerenderedData in a prerendered page (the server writes it: server/src/prerender/html.ts). */
export const PRERENDERED_DATA_ID = 'carnivo-prerendered';
