import type { MouseEvent } from 'react';
import type { AnyRouter } from '@tanstack/react-router';

const isPlainLeftClick = (event: MouseEvent) => event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/** A path inside the site (e.g. /delete-profile), not another origin's (//host/...). */
export const isSitePath = (href: string) => href.startsWith('/') && !href.startsWith('//');

/**
 * A plain left click on a link to a path inside the site, anywhere within the element that listens,
 * opens that page in the app without a full reload; other clicks and links keep the browser's way.
 */
export function openSiteLink(event: MouseEvent, router: AnyRouter): void {
  if (!isPlainLeftClick(event) || event.defaultPrevented || !(event.target instanceof Element)) return;
  const href = event.target.closest('a')?.getAttribute('href');
  if (!href || !isSitePath(href)) return;
  event.preventDefault();
  void router.navigate({ href });
}
