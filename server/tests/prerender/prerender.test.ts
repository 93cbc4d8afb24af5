import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Core } from '@strapi/strapi';
import { bootStrapi, SERVER_DIR, type TestStrapi } from '../helpers/strapi';
import { testRedisDb } from '../helpers/instances';
import { createRequire } from 'node:module';
import net from 'node:net';
import { LEGAL_CACHE_MS, createPrerenderer, type Prerenderer } from '../../src/prerender/prerender';
import { PROFILE_SHELL, scriptHashSource, withScriptSource } from '../../src/prerender/html';
import { closeLegalEditWatchers, legalEditsChannel, watchLegalEdits } from '../../src/prerender/legal-edits';

/**
 * The public pages served as full HTML (docs/public-pages.md), fetched as a
 * crawler or a link preview would: plain HTTP, no JavaScript. Needs `npm run build` (npm test runs it).
 */

const REPO_DIR = path.resolve(SERVER_DIR, '..');
const SPA_DIR = path.join(REPO_DIR, 'dist');
const PUBLIC_URL = 'https://carnivo.example';
const built = fs.existsSync(path.join(REPO_DIR, 'dist-ssr', 'entry-server.js')) && fs.existsSync(path.join(SPA_DIR, 'index.html'));
if (!built) throw new Error('prerender.test: the app is not built (dist/ and dist-ssr/); run npm run build first.');

const PUBLIC_PAGES = [
  { path: '/', title: 'Carnivo - Carnivore & Ketovore Diet App', heading: 'The diet app made for carnivore and ketovore eaters' },
  { path: '/about', title: 'Carnivo - About', heading: 'About Carnivo' },
  { path: '/company-details', title: 'Carnivo - Company Details', heading: 'Company Details' },
  { path: '/features', title: 'Carnivo - Features', heading: null },
  { path: '/contact', title: 'Carnivo - Contact', heading: null },
  { path: '/privacy-policy', title: 'Carnivo - Privacy Policy', heading: 'Privacy Policy' },
  { path: '/terms', title: 'Carnivo - Terms and Conditions', heading: 'Terms and Conditions' },
  { path: '/refund-policy', title: 'Carnivo - Refund Policy', heading: 'Refund Policy' },
  { path: '/login', title: 'Carnivo - Log In', heading: 'Log In' },
  { path: '/signup', title: 'Carnivo - Sign Up', heading: 'Sign Up' },
  { path: '/reset-password', title: 'Carnivo - Reset Password', heading: null },
  { path: '/email-confirmation', title: 'Carnivo - Email Confirmed', heading: 'Email Confirmed' },
];

let app: TestStrapi;

beforeAll(async () => {
  app = await bootStrapi({ env: { PUBLIC_URL } });
});

afterAll(async () => {
  await app?.stop();
});

async function page(urlPath: string) {
  const res = await fetch(app.baseUrl + urlPath, { redirect: 'manual' });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    cache: res.headers.get('cache-control'),
    html: await res.text(),
  };
}

/** The markup inside <div id="root">, up to the data script that follows it. */
const rootOf = (html: string) => /<div id="root">([\s\S]*?)<\/div>\s*(?:<script id="carnivo-prerendered"|<\/body>)/.exec(html)?.[1] ?? '';
const attr = (html: string, selector: RegExp) => selector.exec(html)?.[1];
const decode = (value: string | undefined) =>
  value
    ?.replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

describe('public pages come as full HTML', () => {
  it.each(PUBLIC_PAGES)(
    '$path: its title, description, canonical URL, social cards and heading, without JavaScript',
    async ({ path: urlPath, title, heading }) => {
      const { status, type, cache, html } = await page(urlPath);
      expect(status).toBe(200);
      expect(type).toMatch(/^text\/html/);
      expect(cache).toBe('no-cache');
      expect(html).toContain(`<title>${title.replace(/&/g, '&amp;')}</title>`);
      expect(html.match(/<title>/g)).toHaveLength(1);
      const description = decode(attr(html, /<meta name="description" content="([^"]*)"/));
      expect(description?.length).toBeGreaterThan(20);
      expect(attr(html, /<link rel="canonical" href="([^"]*)"/)).toBe(`${PUBLIC_URL}${urlPath}`);
      expect(decode(attr(html, /<meta property="og:title" content="([^"]*)"/))).toBe(title);
      expect(decode(attr(html, /<meta property="og:description" content="([^"]*)"/))).toBe(description);
      expect(attr(html, /<meta property="og:url" content="([^"]*)"/)).toBe(`${PUBLIC_URL}${urlPath}`);
      expect(attr(html, /<meta property="og:image" content="([^"]*)"/)).toBe(`${PUBLIC_URL}/og-image.png`);
      expect(attr(html, /<meta name="twitter:card" content="([^"]*)"/)).toBe('summary_large_image');

      const root = rootOf(html);
      expect(root).toContain('<h1');
      if (heading)
        expect(root.replace(/<!-- -->/g, '')).toMatch(new RegExp(`<h1[^>]*>${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</h1>`));
      // A visitor's page: the navigation offers log-in, whatever the browser later knows.
      expect(root).toContain('href="/login"');
      expect(html).toContain('<script id="carnivo-prerendered" type="application/json">');
    },
  );

  it('the landing page carries its JSON-LD', async () => {
    const { html } = await page('/');
    const jsonLd = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1];
    const graph = JSON.parse(jsonLd ?? 'null') as { '@graph'?: { '@type': string }[] } | { '@type': string }[] | null;
    const types = (Array.isArray(graph) ? graph : (graph?.['@graph'] ?? [])).map((node) => node['@type']);
    expect(types).toEqual(expect.arrayContaining(['MobileApplication', 'Organization', 'WebSite']));
    // The site's address is PUBLIC_URL's, not a host written into the code.
    const website = (Array.isArray(graph) ? graph : (graph?.['@graph'] ?? [])).find((node) => node['@type'] === 'WebSite') as
      | { url: string; potentialAction: { target: { urlTemplate: string } } }
      | undefined;
    expect(website?.url).toBe(PUBLIC_URL);
    expect(website?.potentialAction.target.urlTemplate).toBe(`${PUBLIC_URL}/search?q={search_term_string}`);
    expect(jsonLd).not.toContain('carnivo.app/');
  });

  it("names the page's chunk and the chunks it imports for the loader; the site's one stylesheet is in the head", async () => {
    const { html } = await page('/privacy-policy');
    const chunks = (/<script type="module" id="carnivo-app"[^>]* data-chunks="([^"]*)"/.exec(html)?.[1] ?? '').split(' ').filter(Boolean);
    expect(chunks.some((href) => /^\/assets\/LegalPage-[\w-]+\.js$/.test(href))).toBe(true);
    expect(chunks.length).toBeGreaterThan(1);
    // Not preloaded from the HTML: fetched after the first paint, beside the app's entry (public/app-loader.js).
    expect(html).not.toContain('modulepreload');
    const styles = [...html.matchAll(/<link rel="stylesheet" crossorigin href="([^"]+)"/g)].map((match) => match[1]);
    expect(styles).toHaveLength(1);
    for (const href of [...chunks, ...styles]) expect(fs.existsSync(path.join(SPA_DIR, href)), href).toBe(true);
    // The stylesheet is asked for from the HTML, before any script runs.
    expect(html.indexOf(styles[0])).toBeLessThan(html.indexOf('<div id="root">'));
  });

  it('starts the app after the first paint: the loader names the built entry script', async () => {
    const { html } = await page('/');
    const loader = /<script type="module" id="carnivo-app" src="([^"]+)" data-src="([^"]+)" data-chunks="[^"]*"><\/script>/.exec(html);
    expect(loader?.[1]).toBe('/app-loader.js');
    const shell = fs.readFileSync(path.join(SPA_DIR, 'index.html'), 'utf8');
    expect(shell).toContain(`src="${loader?.[2]}"`);
    for (const file of [loader![1], loader![2]]) expect(fs.existsSync(path.join(SPA_DIR, file)), file).toBe(true);
    // No other way in: the entry is not also loaded directly.
    expect(html.match(/<script type="module"/g)).toHaveLength(1);
    // The client-rendered shell keeps loading the app at once.
    const { html: bmi } = await page('/bmi');
    expect(bmi).toContain(`<script type="module" crossorigin src="${loader?.[2]}"></script>`);
  });

  it('keeps the query: /reset-password?code=… has the code in its form, and the canonical URL has none', async () => {
    const { html } = await page('/reset-password?code=ABCDE12345');
    expect(rootOf(html)).toContain('value="ABCDE12345"');
    expect(attr(html, /<link rel="canonical" href="([^"]*)"/)).toBe(`${PUBLIC_URL}/reset-password`);
  });

  it('every page in the sitemap is served prerendered, under PUBLIC_URL', async () => {
    const sitemap = await (await fetch(`${app.baseUrl}/sitemap.xml`)).text();
    const urls = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(urls.length).toBeGreaterThanOrEqual(11);
    for (const url of urls) {
      expect(url.startsWith(`${PUBLIC_URL}/`), url).toBe(true);
      const { html } = await page(new URL(url).pathname);
      expect(html, url).toContain('<script id="carnivo-prerendered"');
    }
  });

  it.each(['/ABOUT', '/about/', '/%61bout'])('%s is one page with one URL: a 301 to /about, the query kept', async (urlPath) => {
    const res = await fetch(`${app.baseUrl}${urlPath}?ref=mail`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/about?ref=mail');
  });

  it('ignores the query of a page that does not read it: the same cached HTML, nothing reflected', async () => {
    const plain = (await page('/about')).html;
    const probe = await page('/about?q=%22%3E%3Cscript%3Ealert(1)%3C/script%3E');
    expect(probe.html).toBe(plain);
    expect(probe.cache).toBe('no-cache');
  });

  it('the reset page, which shows the e-mailed code, is never stored by a shared cache', async () => {
    expect((await page('/reset-password?code=ABCDE12345')).cache).toBe('private, no-store');
    expect((await page('/reset-password')).cache).toBe('no-cache');
  });

  it.each(['/bmi', '/delete-profile', '/auth/facebook/callback?code=x'])('%s stays client-rendered: the plain shell', async (urlPath) => {
    const { status, html } = await page(urlPath);
    expect(status).toBe(200);
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain('<title>Carnivo</title>');
    expect(html).not.toContain('carnivo-prerendered');
  });

  it.each(['/no-such-page', '/profile/extra', '/ABOUT/team', '/email-change//confirm'])(
    '%s, no route of the SPA, is the shell marked noindex, with 404',
    async (urlPath) => {
      const { status, html } = await page(urlPath);
      expect(status).toBe(404);
      expect(html).toContain('<div id="root"></div>');
      expect(html).toContain('<meta name="robots" content="noindex" />');
      expect(html).not.toContain('carnivo-prerendered');
    },
  );
});

describe('/profile: the profile shell, inline, the same for everyone', () => {
  const script = () => fs.readFileSync(path.join(SPA_DIR, PROFILE_SHELL), 'utf8').trim();

  it.each(['/profile', '/profile?tab=goals'])(
    '%s: the shell with the profile shell as its one script, which names the app entry; no member data',
    async (urlPath) => {
      const res = await fetch(app.baseUrl + urlPath);
      const html = await res.text();
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(html).toContain('<div id="root"></div>');
      expect(html).toContain('<title>Carnivo</title>');
      expect(html).not.toContain('carnivo-prerendered');
      const inline = /<script id="carnivo-app" data-src="([^"]+)">([\s\S]*?)<\/script>/.exec(html);
      expect(inline?.[2]).toBe(script());
      const shell = fs.readFileSync(path.join(SPA_DIR, 'index.html'), 'utf8');
      expect(shell).toContain(`<script type="module" crossorigin src="${inline?.[1]}"></script>`);
      expect(html.match(/<script/g)).toHaveLength(1);
      // It is read before the stylesheet, so it asks for the profile without waiting for it.
      expect(html.indexOf('<script id="carnivo-app"')).toBeLessThan(html.indexOf('rel="stylesheet"'));
    },
  );

  it("allows that script by its hash in the page's own CSP, and only there", async () => {
    const profile = await fetch(`${app.baseUrl}/profile`);
    await profile.body?.cancel();
    const csp = profile.headers.get('content-security-policy') ?? '';
    const scriptSrc = csp.split(';').find((directive) => directive.startsWith('script-src '));
    expect(scriptSrc?.split(' ')).toContain(scriptHashSource(script()));
    expect(scriptSrc).not.toContain('unsafe-inline');
    const home = await fetch(`${app.baseUrl}/`);
    await home.body?.cancel();
    expect(withScriptSource(home.headers.get('content-security-policy') ?? '', scriptHashSource(script()))).toBe(csp);
    expect(home.headers.get('content-security-policy')).not.toContain('sha256-');
  });

  it('/Profile and /profile/ are the one URL /profile', async () => {
    for (const urlPath of ['/Profile', '/profile/']) {
      const res = await fetch(`${app.baseUrl}${urlPath}?tab=diet`, { redirect: 'manual' });
      expect(res.status, urlPath).toBe(301);
      expect(res.headers.get('location')).toBe('/profile?tab=diet');
    }
  });
});

describe('legal pages hold the text Strapi has now', () => {
  const uid = 'api::privacy-policy.privacy-policy';

  it("shows an editor's change at once, and cannot be broken out of by the text", async () => {
    expect(rootOf((await page('/privacy-policy')).html)).toContain('How long we keep it');
    const documents = app.strapi.documents(uid);
    const current = await documents.findFirst();
    const edited = 'Edited by an editor.\n\n</script><script>alert("x")</script><img src=x onerror=alert(1)>';
    await documents.update({ documentId: current!.documentId, data: { Text: 'Our Privacy Policy', Content: edited } });
    try {
      const { html } = await page('/privacy-policy');
      const root = rootOf(html);
      expect(root).toContain('<h1>Our Privacy Policy</h1>');
      expect(root).toContain('Edited by an editor.');
      expect(root).not.toContain('How long we keep it');
      // Neither the markup (sanitised markdown) nor the data script lets the text run script.
      expect(html).not.toMatch(/<script>alert/);
      expect(root).not.toContain('onerror');
      expect(root).not.toContain('<img');
      const data = /<script id="carnivo-prerendered" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
      expect(data).not.toContain('</');
      expect(JSON.parse(data)).toMatchObject({
        path: '/privacy-policy',
        legal: { kind: 'privacyPolicy', document: { title: 'Our Privacy Policy', content: edited } },
      });
    } finally {
      await documents.update({ documentId: current!.documentId, data: { Text: String(current!.Text), Content: String(current!.Content) } });
    }
    expect(rootOf((await page('/privacy-policy')).html)).toContain('How long we keep it');
  });

  it('shows an edit made in the admin panel (Content Manager) in the HTML of /privacy-policy at once', async () => {
    // An editor with the admin panel's own log-in and its own API, as the browser's admin panel calls it.
    const superAdmin = await app.strapi.service('admin::role').getSuperAdmin();
    const editor = { email: 'editor@carnivo.example', password: 'Editor-Passw0rd' };
    await app.strapi
      .service('admin::user')
      .create({ ...editor, firstname: 'Ed', lastname: 'Itor', isActive: true, roles: [superAdmin.id] });
    const login = await fetch(`${app.baseUrl}/admin/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(editor),
    });
    expect(login.status).toBe(200);
    const { data } = (await login.json()) as { data: { token: string } };

    expect(rootOf((await page('/privacy-policy')).html)).toContain('How long we keep it');
    const current = await app.strapi.documents('api::privacy-policy.privacy-policy').findFirst();
    const saved = await fetch(`${app.baseUrl}/content-manager/single-types/api::privacy-policy.privacy-policy`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${data.token}` },
      body: JSON.stringify({ Text: 'Our Privacy Promise', Content: '## New policy\n\nSaved in the admin panel.' }),
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    try {
      const root = rootOf((await page('/privacy-policy')).html);
      expect(root).toContain('<h1>Our Privacy Promise</h1>');
      expect(root).toContain('Saved in the admin panel.');
    } finally {
      await app.strapi.documents('api::privacy-policy.privacy-policy').update({
        documentId: current!.documentId,
        data: { Text: String(current!.Text), Content: String(current!.Content) },
      });
    }
  });

  it('serves the shell when Strapi has no text, so the browser runs the loading and error flow', async () => {
    const refundUid = 'api::refund-policy.refund-policy';
    const documents = app.strapi.documents(refundUid);
    const current = await documents.findFirst();
    await documents.delete({ documentId: current!.documentId });
    try {
      const { status, html } = await page('/refund-policy');
      expect(status).toBe(200);
      expect(html).toContain('<div id="root"></div>');
    } finally {
      await documents.create({ data: { Title: String(current!.Title), Content: String(current!.Content) } });
    }
    expect(rootOf((await page('/refund-policy')).html)).toContain('<h1>Refund Policy</h1>');
  });
});

// --- the renderer alone ------------------------------------------------------------------------

// The test runner's own import(): the server's (Node's native one) is not available inside it.
const importModule = (specifier: string) => import(specifier);

type Logged = { error: ReturnType<typeof vi.fn>; info: ReturnType<typeof vi.fn> };

/** Just what the renderer uses of Strapi: the log, the content types and the Document Service. */
function fakeStrapi(readText: () => string): Core.Strapi & { log: Logged } {
  const uid = 'api::terms-and-condition.terms-and-condition';
  return {
    log: { error: vi.fn(), info: vi.fn() },
    contentTypes: { [uid]: { uid, kind: 'singleType', info: { singularName: 'terms-and-condition' } } },
    documents: () => ({ findFirst: async () => ({ Title: 'Terms and Conditions', Content: readText() }) }),
  } as unknown as Core.Strapi & { log: Logged };
}

async function htmlOf(renderer: Prerenderer, pathname: string, search = ''): Promise<string | null> {
  const answer = await renderer.page(pathname, search);
  return answer && 'html' in answer ? answer.html : null;
}

describe('the renderer', () => {
  it('does not keep a legal page rendered while an editor saved it (the old text would live on)', async () => {
    let text = 'Old text.';
    let gate: Promise<void> | null = null;
    let openGate = () => {};
    let reads = 0;
    const strapi = fakeStrapi(() => text);
    (strapi as { documents: unknown }).documents = () => ({
      findFirst: async () => {
        reads += 1;
        const document = { Title: 'Terms and Conditions', Content: text };
        if (gate) await gate;
        return document;
      },
    });
    const renderer = createPrerenderer(strapi, SPA_DIR, { importModule });
    gate = new Promise<void>((resolve) => (openGate = resolve));
    const racing = htmlOf(renderer, '/terms');
    await vi.waitFor(() => expect(reads).toBe(1), { timeout: 15_000 });
    // The editor saves while the old text is being rendered.
    text = 'New text.';
    renderer.forgetLegalPages();
    gate = null;
    openGate();
    expect(await racing).toContain('Old text.');
    expect(await htmlOf(renderer, '/terms')).toContain('New text.');
    expect(reads).toBe(2);
  });

  it(`renders a legal page again after ${LEGAL_CACHE_MS / 1000} s, so every instance shows an edit within a minute`, async () => {
    expect(LEGAL_CACHE_MS).toBeLessThanOrEqual(60_000);
    let text = 'First text.';
    const renderer = createPrerenderer(
      fakeStrapi(() => text),
      SPA_DIR,
      { importModule },
    );
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      expect(await htmlOf(renderer, '/terms')).toContain('First text.');
      text = 'Second text.';
      // Still the cached page (another instance's edit: no lifecycle here) ...
      vi.setSystemTime(Date.now() + LEGAL_CACHE_MS - 1000);
      expect(await htmlOf(renderer, '/terms')).toContain('First text.');
      // ... until it is older than the limit.
      vi.setSystemTime(Date.now() + 2000);
      expect(await htmlOf(renderer, '/terms')).toContain('Second text.');
      text = 'Third text.';
      renderer.forgetLegalPages();
      expect(await htmlOf(renderer, '/terms')).toContain('Third text.');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a page that fails to render falls back to the shell and is logged once, never thrown', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-ssr-'));
    fs.mkdirSync(path.join(dir, 'dist'));
    fs.writeFileSync(
      path.join(dir, 'dist', 'index.html'),
      '<html><head><title>Carnivo</title></head><body><div id="root"></div></body></html>',
    );
    fs.mkdirSync(path.join(dir, 'dist-ssr'));
    fs.writeFileSync(
      path.join(dir, 'dist-ssr', 'entry-server.js'),
      'export async function prerender(href) { throw new Error(`render of ${href} broke`); }\n',
    );
    const strapi = fakeStrapi(() => 'x');
    try {
      const renderer = createPrerenderer(strapi, path.join(dir, 'dist'), { importModule });
      expect(await renderer.page('/about', '')).toBeNull();
      expect(await renderer.page('/about', '')).toBeNull();
      expect(strapi.log.error).toHaveBeenCalledTimes(1);
      expect(String(strapi.log.error.mock.calls[0][0])).toContain('render of /about broke');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('/profile without a built profile shell, or with one that could end its element early, is the plain shell', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-ssr-'));
    fs.mkdirSync(path.join(dir, 'dist'));
    fs.writeFileSync(
      path.join(dir, 'dist', 'index.html'),
      '<html><head><title>Carnivo</title><script type="module" crossorigin src="/assets/index-abc.js"></script></head><body><div id="root"></div></body></html>',
    );
    // The /profile page as a fresh prerenderer serves it, with whatever shell file dist/ holds now.
    const profilePage = () =>
      createPrerenderer(
        fakeStrapi(() => 'x'),
        path.join(dir, 'dist'),
        { importModule },
      ).page('/profile', '');
    try {
      expect(await profilePage()).toBeNull();
      fs.writeFileSync(path.join(dir, 'dist', PROFILE_SHELL), 'document.title = "</script><script>alert(1)";');
      expect(await profilePage()).toBeNull();
      fs.writeFileSync(path.join(dir, 'dist', PROFILE_SHELL), 'document.title = "shell";\n');
      expect(await profilePage()).toEqual({
        html: '<html><head><title>Carnivo</title><script id="carnivo-app" data-src="/assets/index-abc.js">document.title = "shell";</script></head><body><div id="root"></div></body></html>',
        scriptSource: scriptHashSource('document.title = "shell";'),
        personal: false,
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without a server bundle every page is the shell', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-ssr-'));
    const strapi = fakeStrapi(() => 'x');
    try {
      const renderer = createPrerenderer(strapi, path.join(dir, 'dist'), { importModule });
      expect(await renderer.page('/', '')).toBeNull();
      expect(strapi.log.error).not.toHaveBeenCalled();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

// --- an edit on one instance, seen by the others (Redis) ------------------------------------------

const REDIS_PORT = Number(process.env.TEST_REDIS_PORT ?? 6379);
const redisAnswers = await new Promise<boolean>((resolve) => {
  const socket = net.connect({ host: '127.0.0.1', port: REDIS_PORT });
  socket.setTimeout(1000);
  socket.once('connect', () => (socket.end(), resolve(true)));
  socket.once('error', () => resolve(false));
  socket.once('timeout', () => (socket.destroy(), resolve(false)));
});
if (!redisAnswers) console.warn(`[prerender.test] cross-instance legal edits skipped: no Redis at 127.0.0.1:${REDIS_PORT}`);
const REDIS_DB = redisAnswers ? await testRedisDb() : 0;

describe.skipIf(!redisAnswers)('a legal page edited on one instance', () => {
  const Redis = createRequire(import.meta.url)('ioredis') as typeof import('ioredis').default;

  /** An instance as far as the watcher sees it: lifecycles it can subscribe to, a renderer, its own Redis. */
  function instance() {
    type Subscriber = { models: string[]; afterUpdate: () => void };
    const lifecycles: Subscriber[] = [];
    const strapi = { db: { lifecycles: { subscribe: (subscriber: Subscriber) => lifecycles.push(subscriber) } }, log: { warn: vi.fn() } };
    const prerenderer: Prerenderer = { page: async () => null, forgetLegalPages: vi.fn() };
    const redis = new Redis({ host: '127.0.0.1', port: REDIS_PORT, db: REDIS_DB });
    watchLegalEdits(strapi as unknown as Core.Strapi, prerenderer, redis);
    return { lifecycles, prerenderer, redis };
  }

  afterAll(async () => {
    await closeLegalEditWatchers();
  });

  it('is dropped from every instance at once, through Redis', async () => {
    const [a, b] = [instance(), instance()];
    try {
      // Both subscribed before the edit, on this database's channel: other files' servers, on other databases
      // of the same Redis, neither count here nor are heard (channels are not per database).
      await vi.waitFor(async () => expect(Number((await a.redis.pubsub('NUMSUB', legalEditsChannel(a.redis)))[1])).toBe(2));
      expect(a.lifecycles[0].models).toEqual(expect.arrayContaining(['api::privacy-policy.privacy-policy']));
      a.lifecycles[0].afterUpdate();
      expect(a.prerenderer.forgetLegalPages).toHaveBeenCalled();
      await vi.waitFor(() => expect(b.prerenderer.forgetLegalPages).toHaveBeenCalled(), { timeout: 5000 });
    } finally {
      await Promise.all([a.redis.quit(), b.redis.quit()]);
    }
  });
});
