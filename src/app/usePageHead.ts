import { useEffect } from 'react';

export type PageHead = { title: string; description?: string; keywords?: string };

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
 * travel with the page's lazy chunk rather than with the first paint.
 */
export function usePageHead({ title, description, keywords }: PageHead): void {
  useEffect(() => {
    document.title = title;
    setNamedMeta('description', description);
    setNamedMeta('keywords', keywords);
  }, [title, description, keywords]);
}
