import type { Core } from '@strapi/strapi';
import { SPA_ROUTES } from '../contract/routes';
import { publicUrl } from '../public-url';

/**
 * /robots.txt and /sitemap.xml, written from PUBLIC_URL on each request (so one build serves any
 * host). Members-only pages, the social sign-in callbacks, the admin panel and the API are kept out
 * of search engines; the sitemap lists the public pages. /email-confirmation is left out: it is only
 * the landing page of the confirmation e-mail's link, with nothing to find. /email-change/ pages are
 * disallowed: their links carry single-use tokens.
 */

export const ROBOTS_DISALLOWED = ['/profile', '/bmi', '/delete-profile', '/auth/', '/email-change/', '/admin', '/api'];

/** Routes neither listed nor kept out: the confirmation e-mail's landing page. */
const UNLISTED = ['/email-confirmation'];
const keptOut = (route: string) =>
  ROBOTS_DISALLOWED.some((prefix) => route === prefix || route.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`));

/** The SPA's routes (contract/routes.ts) that robots.txt lets in, but the unlisted one. */
export const SITEMAP_PATHS: readonly string[] = SPA_ROUTES.filter((route) => !keptOut(route) && !UNLISTED.includes(route));

const CACHE_CONTROL = 'public, max-age=3600';

const XML_ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' };
const escapeXml = (text: string): string => text.replace(/[<>&'"]/g, (char) => XML_ENTITIES[char]);

export const robotsTxt = (origin: string): string =>
  ['User-agent: *', 'Allow: /', ...ROBOTS_DISALLOWED.map((prefix) => `Disallow: ${prefix}`), '', `Sitemap: ${origin}/sitemap.xml`, ''].join(
    '\n',
  );

export const sitemapXml = (origin: string): string =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...SITEMAP_PATHS.map((pathname) => `  <url><loc>${escapeXml(origin + pathname)}</loc></url>`),
    '</urlset>',
    '',
  ].join('\n');

const crawlerFiles: Core.MiddlewareFactory = () => async (ctx, next) => {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
  if (ctx.path === '/robots.txt') {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.set('Cache-Control', CACHE_CONTROL);
    ctx.body = robotsTxt(publicUrl());
    return;
  }
  if (ctx.path === '/sitemap.xml') {
    ctx.type = 'application/xml; charset=utf-8';
    ctx.set('Cache-Control', CACHE_CONTROL);
    ctx.body = sitemapXml(publicUrl());
    return;
  }
  return next();
};

export default crawlerFiles;
