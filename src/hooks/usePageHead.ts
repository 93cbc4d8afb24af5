import { useContext, useEffect } from 'react';
import { PageHeadCollector, type PageHead } from './pageHead';

export type { PageHead } from './pageHead';

function setNamedMeta(name: string, content: string | undefined) {
  let tag = document.head.querySelector(`meta[name="${name}"]`);
  if (!content) {
    tag?.remove();
    return;
  }
  if (!tag) {
    tag = document.createElement('meta');
    tag.setAttribute('name', name);
    document.head.append(tag);
  }
  tag.setAttribute('content', content);
}

/**
 * Sets the page's title, description and keywords. Each page owns its head, so the words
 * travel with the page's lazy chunk rather than with the first paint. On the server (prerendering)
 * the head is reported to the collector instead, during render, since effects do not run there.
 */
export function usePageHead(head: PageHead): void {
  const collect = useContext(PageHeadCollector);
  collect?.(head);
  const { title, description, keywords } = head;
  useEffect(() => {
    document.title = title;
    setNamedMeta('description', description);
    setNamedMeta('keywords', keywords);
  }, [title, description, keywords]);
}
