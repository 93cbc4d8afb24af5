import { createContext } from 'react';

export type PageHead = { title: string; description?: string; keywords?: string };

/**
 * Set only while the server prerenders a page: each page's usePageHead reports its head here, so
 * the HTML carries the same title and description the page sets in the browser.
 */
export const PageHeadCollector = createContext<((head: PageHead) => void) | null>(null);
