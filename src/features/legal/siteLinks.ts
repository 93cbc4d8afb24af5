import type { MouseEvent } from 'react';
import type { AnyRouter } from '@tanstack/react-router';
import { isSpaRoute } from '../../../server/src/contract/routes';
import { safeReturnPath } from '../../../machines/rules/returnPath';

const isPlainLeftClick = (event: MouseEvent) => event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/** A path inside the site (e.g. /delete-profile), not another origin's (//host/..., /\\host/...): a safe return path's rule. */
export const isSitePath = (href: string) => safeReturnPath(href, '') !== '';

/** A link's path when it opens a page of the app (a route, on this site, not in a new tab or as a download); else null. */
function appPageOf(link: HTMLAnchorElement): string | null {
  const href = link.getAttribute('href') ?? '';
  if (link.hasAttribute('target') || link.hasAttribute('download') || !isSitePath(href)) return null;
  return isSpaRoute(href.replace(/[?#].*$/, '')) ? href : null;
}

/**
 * A plain left click on a link to a page of the app, anywhere within the element that listens, opens that
 * page without a full reload. Other clicks and links (files, the API, other hosts) keep the browser's way.
 */
export function openSiteLink(event: MouseEvent, router: AnyRouter): void {
  if (!isPlainLeftClick(event) || event.defaultPrevented || !(event.target instanceof Element)) return;
  const link = event.target.closest('a');
  const href = link && appPageOf(link);
  if (!href) return;
  event.preventDefault();
  void router.navigate({ href });
}
