import { preloadableChunk } from '../../hooks/lazyPage';

/**
 * The markdown renderer, in a chunk of its own: a legal page opened from its URL keeps the text its HTML
 * came with and never loads it; reached inside the app, the page renders the text it fetched with it.
 */
export const { Chunk: LegalText, load: loadLegalText } = preloadableChunk(() => import('./Markdown').then((module) => module.SafeMarkdown));
