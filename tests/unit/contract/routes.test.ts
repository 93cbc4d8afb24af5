import { describe, expect, it } from 'vitest';
import { SPA_ROUTES, canonicalSpaPath, isSpaRoute } from '../../../server/src/contract/routes';
import { ROBOTS_DISALLOWED, SITEMAP_PATHS, robotsTxt, sitemapXml } from '../../../server/src/middlewares/crawler-files';

/** Routes neither listed nor kept out: the confirmation e-mail's landing page, with nothing to find (crawler-files.ts). */
const NEITHER = ['/email-confirmation'];
/** Paths the server owns (the admin panel, the API), not the SPA. */
const SERVER_OWNED = ['/admin', '/api'];
const disallowed = (route: string) =>
  ROBOTS_DISALLOWED.some((prefix) => route === prefix || route.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`));

describe('the route table (server/src/contract/routes.ts)', () => {
  it('matches the routes as the router does: any case, trailing slashes, encoded letters, one segment per parameter', () => {
    for (const pathname of [
      '/',
      '/about',
      '/About',
      '/about/',
      '/%61bout',
      '/profile',
      '/BMI',
      '/auth/google/callback',
      '/auth/apple/callback/',
      '/email-change/confirm',
    ]) {
      expect(isSpaRoute(pathname), pathname).toBe(true);
    }
    for (const pathname of [
      '/definitely/not/a/page',
      '/profile/extra',
      '/metrics',
      '/auth/callback',
      '/auth/google/x/callback',
      '/email-change',
      '/about/team',
      '/favicon.ico',
      '/%E0%A4%A',
      // What the router sends to its catch-all: an escaped "/" inside a segment, an empty segment.
      '/email-change%2Fconfirm',
      '/%2F%2Fabout',
      '/email-change//confirm',
      '/auth//callback',
    ]) {
      expect(isSpaRoute(pathname), pathname).toBe(false);
    }
    // The router collapses leading slashes: "//about" is /about, and is redirected there.
    expect(isSpaRoute('//about')).toBe(true);
    expect(canonicalSpaPath('//About/')).toBe('/about');
    expect(canonicalSpaPath('/%61bout')).toBe('/about');
    expect(canonicalSpaPath('/%2F%2Fabout')).toBe('/%2f%2fabout');
    expect(canonicalSpaPath('///')).toBe('/');
    expect(canonicalSpaPath('/%E0%A4%A')).toBeNull();
  });

  it('the sitemap lists only routes, robots.txt keeps out the rest, and every route is one or the other', () => {
    for (const pathname of SITEMAP_PATHS) {
      expect(isSpaRoute(pathname), pathname).toBe(true);
      expect(disallowed(pathname), pathname).toBe(false);
    }
    for (const route of SPA_ROUTES) {
      const listed = (SITEMAP_PATHS as readonly string[]).includes(route);
      expect([listed, disallowed(route), NEITHER.includes(route)].filter(Boolean), route).toHaveLength(1);
    }
    // Each rule of robots.txt keeps out a route of the SPA, or a path the server owns.
    for (const prefix of ROBOTS_DISALLOWED) {
      expect(SERVER_OWNED.includes(prefix) || SPA_ROUTES.some((route) => route.startsWith(prefix)), prefix).toBe(true);
    }
    expect(robotsTxt('https://carnivo.app')).toContain('Disallow: /profile');
    expect(sitemapXml('https://carnivo.app')).toContain('<loc>https://carnivo.app/refund-policy</loc>');
  });
});
