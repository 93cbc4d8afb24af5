import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Core } from '@strapi/strapi';
import { canonicalSpaPath } from '../contract/routes';
import { publicUrl as configuredPublicUrl } from '../public-url';
import { PROFILE_SHELL, fillShell, profileShellPage, type Manifest, type RenderedPage } from './html';

/**
 * Public pages served as HTML rendered on the server (docs/public-pages.md):
 * the SSR bundle `vite build --ssr` writes next to the SPA build (dist-ssr/entry-server.js, or
 * SSR_ENTRY) renders the same routes and components as the browser; this fills the SPA's
 * index.html with the result. Anything that goes wrong serves the plain shell (the browser then
 * renders the page as before) and is logged, never a 500.
 *
 * Cache, per process: pages that depend only on the build are kept; a legal page is kept at most
 * LEGAL_CACHE_MS and dropped as soon as an editor saves its text on this instance (a lifecycle), so
 * every instance serves the new text within that time. A query changes nothing but /reset-password's
 * form (the e-mailed code), which is rendered for each request and marked private.
 *
 * /profile is no public page, but gets HTML of its own too: the shell with the profile shell's
 * script inline, which paints the signed-in member's profile before the app loads (html.ts
 * profileShellPage). The same for everyone, it needs no server bundle, only the built script.
 */

type SingleTypeReader = (apiPath: string) => Promise<Record<string, unknown> | null>;
type SsrModule = {
  prerender(
    href: string,
    readSingleType: SingleTypeReader,
    publicUrl: string,
  ): Promise<RenderedPage | { skipped: string } | { redirect: string }>;
};

export const LEGAL_CACHE_MS = 30_000;
const LEGAL_PATHS = ['/privacy-policy', '/terms', '/refund-policy'];
const PROFILE_PATH = '/profile';
/** Pages whose HTML shows the request's query; rendered for each request and never cached. */
const QUERY_PAGES = ['/reset-password'];

// Node's own import(): TypeScript compiles import() to require() here, and the bundle is ESM.
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

/**
 * The full HTML of a page (`personal`: rendered from the request's query, not to be stored by any
 * cache; `scriptSource`: what the page's Content-Security-Policy must add to script-src for its
 * inline script), a redirect to the route's own path, or null to serve the shell.
 */
export type PrerenderAnswer = { html: string; personal: boolean; scriptSource?: string } | { redirect: string } | null;

export interface Prerenderer {
  page(pathname: string, search: string): Promise<PrerenderAnswer>;
  /** Drops cached legal pages (an editor changed one). */
  forgetLegalPages(): void;
}

export function createPrerenderer(
  strapi: Core.Strapi,
  spaRoot: string,
  { importModule = importEsm }: { importModule?: (specifier: string) => Promise<unknown> } = {},
): Prerenderer {
  const entry = path.resolve(process.env.SSR_ENTRY || path.join(spaRoot, '..', 'dist-ssr', 'entry-server.js'));
  const publicUrl = configuredPublicUrl();
  const cache = new Map<string, { html: string; expires: number }>();
  let loaded: Promise<{ render: SsrModule; shell: string; manifest: Manifest } | null> | undefined;
  const failedOnce = new Set<string>();
  /** Moves on each legal edit, so a render that raced with one is not cached. */
  let legalGeneration = 0;
  let profileShell: ReturnType<typeof profileShellPage> | undefined;

  /** /profile's HTML, built once; null (the plain shell) when the profile shell was not built. */
  const profilePage = (): PrerenderAnswer => {
    const script = path.join(spaRoot, PROFILE_SHELL);
    profileShell ??= fs.existsSync(script)
      ? profileShellPage(fs.readFileSync(path.join(spaRoot, 'index.html'), 'utf8'), fs.readFileSync(script, 'utf8').trim())
      : null;
    return profileShell ? { ...profileShell, personal: false } : null;
  };

  const load = () =>
    (loaded ??= (async () => {
      if (!fs.existsSync(entry)) {
        strapi.log.info(`[prerender] no server bundle at ${entry}: public pages are rendered in the browser`);
        return null;
      }
      const render = (await importModule(pathToFileURL(entry).href)) as SsrModule;
      const shell = fs.readFileSync(path.join(spaRoot, 'index.html'), 'utf8');
      const manifestFile = path.join(spaRoot, '.vite', 'manifest.json');
      const manifest = fs.existsSync(manifestFile) ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest) : {};
      return { render, shell, manifest };
    })().catch((error: unknown) => {
      strapi.log.error(
        `[prerender] the server bundle ${entry} could not be loaded; public pages are rendered in the browser: ${String(error)}`,
      );
      return null;
    }));

  /** A legal single type's data, read in-process: /api/privacy-policy -> api::privacy-policy.privacy-policy. */
  const readSingleType: SingleTypeReader = async (apiPath) => {
    const name = apiPath.replace(/^\/api\//, '');
    const contentType = Object.values(strapi.contentTypes).find(
      (type) => type.uid.startsWith('api::') && type.kind === 'singleType' && type.info.singularName === name,
    );
    if (!contentType) return null;
    const document = await strapi.documents(contentType.uid as Parameters<typeof strapi.documents>[0]).findFirst();
    return (document as Record<string, unknown> | null) ?? null;
  };

  return {
    async page(pathname, search) {
      // /About, /about/ and /%61bout are /about to the router: answer with the page's one URL.
      const canonical = canonicalSpaPath(pathname);
      if (canonical === null) return null;
      if (canonical !== pathname) {
        const page = await this.page(canonical, '');
        return page && 'html' in page ? { redirect: `${canonical}${search}` } : null;
      }
      if (pathname === PROFILE_PATH) return profilePage();
      // Only the reset page shows its query (the e-mailed code): every other page is one HTML for
      // every query, so a query can neither bypass the cache nor be reflected.
      const usesQuery = QUERY_PAGES.includes(pathname) && search !== '';
      const now = Date.now();
      const cached = usesQuery ? undefined : cache.get(pathname);
      if (cached && cached.expires > now) return { html: cached.html, personal: false };

      const bundle = await load();
      if (!bundle) return null;
      const generation = legalGeneration;
      try {
        const rendered = await bundle.render.prerender(usesQuery ? `${pathname}${search}` : pathname, readSingleType, publicUrl);
        if ('redirect' in rendered) return { redirect: `${rendered.redirect}${search}` };
        if ('skipped' in rendered) return null;
        const html = fillShell(bundle.shell, rendered, { manifest: bundle.manifest, publicUrl, pathname: rendered.data.path });
        if (!html) return null;
        const legal = LEGAL_PATHS.includes(pathname);
        // A legal page rendered while an editor saved it may hold the old text: not kept.
        if (!usesQuery && (!legal || generation === legalGeneration)) {
          cache.set(pathname, { html, expires: legal ? now + LEGAL_CACHE_MS : Number.POSITIVE_INFINITY });
        }
        failedOnce.delete(pathname);
        return { html, personal: usesQuery };
      } catch (error) {
        // Logged once per page until it renders again: a broken page must not flood the log.
        if (!failedOnce.has(pathname)) {
          if (failedOnce.size >= 100) failedOnce.clear();
          failedOnce.add(pathname);
          strapi.log.error(
            `[prerender] ${pathname} could not be rendered; serving the client-rendered page: ${error instanceof Error ? error.stack : String(error)}`,
          );
        }
        return null;
      }
    },
    forgetLegalPages() {
      legalGeneration += 1;
      for (const legalPath of LEGAL_PATHS) cache.delete(legalPath);
    },
  };
}

/** The legal single types whose edits must show at once (see the lifecycle in src/index.ts). */
export const LEGAL_CONTENT_TYPES = [
  'api::privacy-policy.privacy-policy',
  'api::terms-and-condition.terms-and-condition',
  'api::refund-policy.refund-policy',
];
