import { renderToString } from 'react-dom/server';
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import { createActor, fromCallback } from 'xstate';
import { authSessionMachine } from '../machines/authSession.machine';
import { legalDocumentFrom } from '../machines/services/legal';
import { PageHeadCollector, type PageHead } from './hooks/pageHead';
import { createAppRouter, type AppRouter } from './app/router';
import { legalDocuments } from '../machines/rules/legalDocuments';
import { loadLegalText } from './features/legal/legalText';
import type { PrerenderedData } from './prerender/prerenderedData';

/**
 * Server-side rendering of the public pages (PRERENDERED_PAGES below),
 * built by `vite build --ssr` and called by the Strapi server (server/src/prerender). The same
 * routes, components and machines as in the browser, for a visitor: no session, no browser APIs.
 */

/**
 * The public pages served prerendered, each with the source file of its lazy component: its key in
 * Vite's manifest, so the HTML can preload the chunk built from it. Members-only pages, the social
 * callback and the redirects stay client-rendered. Kept here, in the server build only.
 */
const PRERENDERED_PAGES: Partial<Record<keyof AppRouter['routesByPath'], string>> = {
  '/': 'src/features/marketing/LandingPage.tsx',
  '/about': 'src/features/marketing/AboutPage.tsx',
  '/company-details': 'src/features/marketing/CompanyDetailsPage.tsx',
  '/features': 'src/features/marketing/FeaturesPage.tsx',
  '/contact': 'src/features/marketing/ContactPage.tsx',
  '/privacy-policy': 'src/features/legal/LegalPage.tsx',
  '/terms': 'src/features/legal/LegalPage.tsx',
  '/refund-policy': 'src/features/legal/LegalPage.tsx',
  '/login': 'src/features/auth/LogInPage.tsx',
  '/signup': 'src/features/auth/SignUpPage.tsx',
  '/reset-password': 'src/features/account/ResetPasswordPage.tsx',
  '/email-confirmation': 'src/pages/EmailConfirmedPage.tsx',
};

export type SingleTypeReader = (apiPath: string) => Promise<Record<string, unknown> | null>;

/** The route's own path differs from the one asked for (/ABOUT, /about/): send the visitor there. */
export type CanonicalRedirect = { redirect: string };

export type PrerenderedPage = {
  /** The markup of the app's root element. */
  html: string;
  head: PageHead;
  /** Source files (Vite manifest keys) of the page's lazy chunks, to preload. */
  chunks: string[];
  data: PrerenderedData;
};

/** Why a URL is served as the client-rendered shell instead. */
export type NotPrerendered = { skipped: string };

/** The legal text of the page at `pathname`, if it is a legal page. Throws when Strapi has none. */
async function legalData(pathname: string, readSingleType: SingleTypeReader): Promise<PrerenderedData['legal']> {
  const entry = Object.entries(legalDocuments).find(([, spec]) => spec.route === pathname);
  if (!entry) return undefined;
  const [kind, spec] = entry as [keyof typeof legalDocuments, (typeof legalDocuments)[keyof typeof legalDocuments]];
  const document = legalDocumentFrom(spec, await readSingleType(spec.apiPath));
  if (!document) throw new Error(`no ${spec.pageName} text in ${spec.apiPath}`);
  // renderToString does not wait for a chunk: the renderer is loaded before the page renders.
  await loadLegalText();
  return { kind, document };
}

/** `publicUrl`: the site's public origin (PUBLIC_URL), which the page's structured data names. */
export async function prerender(
  href: string,
  readSingleType: SingleTypeReader,
  publicUrl?: string,
): Promise<PrerenderedPage | NotPrerendered | CanonicalRedirect> {
  const history = createMemoryHistory({ initialEntries: [href] });
  const data: PrerenderedData = {
    path: history.location.pathname,
    legal: await legalData(history.location.pathname, readSingleType),
    ...(publicUrl && { publicUrl }),
  };

  // A visitor's session: nothing stored, nothing persisted, nowhere to navigate.
  const auth = createActor(
    authSessionMachine.provide({
      actions: { persistSession: () => {}, forgetSession: () => {}, navigate: () => {}, revalidateRoutes: () => {} },
      actors: { watchSession: fromCallback(() => () => {}) },
    }),
    { input: { session: null } },
  ).start();

  try {
    const router = createAppRouter({ auth, flows: {}, history, prerendered: data, scrollRestoration: false, isServer: true });
    await router.load();
    // A redirect (e.g. an unknown path) leaves no matches: the browser follows it from the shell.
    const matches = router.state.matches;
    const leaf = matches.at(-1);
    // A match's fullPath is typed unknown once the tree has a pathless layout (the members' route).
    const path = leaf?.fullPath as keyof AppRouter['routesByPath'] | undefined;
    const chunk = path && PRERENDERED_PAGES[path];
    if (!leaf || !path || !chunk) return { skipped: 'not a prerendered page' };
    // The router matches /ABOUT, /about/ and /%61bout too: one page, one URL (and one cache entry).
    if (path !== data.path) return { redirect: path };
    if (matches.some((match) => match.status !== 'success')) return { skipped: `route status ${leaf.status}` };

    let head: PageHead | undefined;
    const html = renderToString(
      <PageHeadCollector.Provider value={(collected) => (head = collected)}>
        <RouterProvider router={router} />
      </PageHeadCollector.Provider>,
    );
    if (!head) return { skipped: 'the page set no head' };
    return { html, head, chunks: [chunk], data };
  } finally {
    auth.stop();
  }
}
