import { escapeHtml } from '../escape-html';

/**
 * Builds a prerendered page's HTML from the built index.html (the SPA shell), the markup the SSR
 * bundle rendered, and Vite's manifest. Pure functions: no Strapi, no file system.
 */
import { createHash } from 'node:crypto';

export type PageHead = { title: string; description?: string; keywords?: string };

export type RenderedPage = {
  html: string;
  head: PageHead;
  chunks: string[];
  /** What the browser hydrates with; `path` is the route's own path. */
  data: { path: string };
};

export type ManifestChunk = { file: string; imports?: string[]; css?: string[]; isEntry?: boolean };
export type Manifest = Record<string, ManifestChunk>;

export const ROOT_ELEMENT = '<div id="root"></div>';
/** The id the SPA reads the prerendered data from (src/prerender/prerenderedData.ts). */
export const PRERENDERED_DATA_ID = 'carnivo-prerendered';
/** The app's entry script in the built index.html, and what starts it after the first paint. */
const APP_SCRIPT = /<script type="module" crossorigin src="(\/assets\/[\w.-]+\.js)"><\/script>/;
export const APP_SCRIPT_ID = 'carnivo-app';
export const APP_LOADER = '/app-loader.js';
/** The script of /profile, inline in its HTML (src/entry-profile-shell.ts, built by `vite build --mode profile-shell`). */
export const PROFILE_SHELL = '/profile-shell.js';
export const OG_IMAGE = { path: '/og-image.png', width: 1200, height: 630, alt: 'Carnivo, the carnivore and ketovore diet app' };
const SITE_NAME = 'Carnivo';

/** JSON that is safe inside <script>: nothing in it can close the element or start a comment. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A Content-Security-Policy source allowing one inline script, by the hash of its text. */
export const scriptHashSource = (script: string) => `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;

/**
 * /profile's HTML: the shell with the profile shell's script inline in place of the app's (no
 * request to wait for before it asks for the profile), the app's entry in its data-src. The script
 * asks for the member's profile with the stored session and paints it before the app's code loads;
 * the HTML itself is the same for everyone, without member data. `scriptSource` is what the page's
 * CSP must add to script-src. Null when the shell lacks the app's script, or the script could end
 * its element early.
 */
export function profileShellPage(shell: string, script: string): { html: string; scriptSource: string } | null {
  const match = APP_SCRIPT.exec(shell);
  if (!match || /<\/script|<!--/i.test(script)) return null;
  const inline = `<script id="${APP_SCRIPT_ID}" data-src="${match[1]}">${script}</script>`;
  return { html: shell.replace(match[0], () => inline), scriptSource: scriptHashSource(script) };
}

/** The shell for a path that is no page: search engines are told not to index it (and the status says 404). */
export const notFoundShell = (shell: string): string =>
  shell.replace('</head>', () => '  <meta name="robots" content="noindex" />\n  </head>');

/** `csp` with `source` added to its script-src (the directive as Strapi's security middleware wrote it). */
export function withScriptSource(csp: string, source: string): string {
  return csp.replace(
    /(^|;)\s*script-src ([^;]*)/,
    (_directive, start: string, sources: string) => `${start}script-src ${sources} ${source}`,
  );
}

/** The JS files and CSS of the given manifest keys with everything they import, minus the entry's. */
export function chunkFiles(manifest: Manifest, keys: string[]): { scripts: string[]; styles: string[] } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key) || chunk.isEntry) return;
    seen.add(key);
    scripts.add(`/${chunk.file}`);
    chunk.css?.forEach((file) => styles.add(`/${file}`));
    chunk.imports?.forEach(visit);
  };
  keys.forEach(visit);
  return { scripts: [...scripts], styles: [...styles] };
}

const meta = (attribute: 'name' | 'property', key: string, content: string) =>
  `<meta ${attribute}="${key}" content="${escapeHtml(content)}" />`;

/** Title, description, canonical URL, Open Graph and Twitter card tags of a public page. */
export function headTags(head: PageHead, canonicalUrl: string, publicUrl: string): string {
  const image = `${publicUrl}${OG_IMAGE.path}`;
  const description = head.description ?? '';
  return [
    `<title>${escapeHtml(head.title)}</title>`,
    description && meta('name', 'description', description),
    head.keywords && meta('name', 'keywords', head.keywords),
    `<link rel="canonical" href="${escapeHtml(canonicalUrl)}" />`,
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:title', head.title),
    description && meta('property', 'og:description', description),
    meta('property', 'og:url', canonicalUrl),
    meta('property', 'og:image', image),
    meta('property', 'og:image:width', String(OG_IMAGE.width)),
    meta('property', 'og:image:height', String(OG_IMAGE.height)),
    meta('property', 'og:image:alt', OG_IMAGE.alt),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', head.title),
    description && meta('name', 'twitter:description', description),
    meta('name', 'twitter:image', image),
  ]
    .filter(Boolean)
    .join('\n    ');
}

/**
 * The shell with the page filled in: its head replaces the shell's <title>, the route's chunks are
 * named for the app loader and their CSS linked (styled at first paint), and the root holds the markup followed by
 * the data the browser hydrates with. Null when the shell lacks the markers (not our index.html).
 */
export function fillShell(
  shell: string,
  page: RenderedPage,
  options: { manifest: Manifest; publicUrl: string; pathname: string },
): string | null {
  const titleMatch = /<title>[^<]*<\/title>/.exec(shell);
  if (!titleMatch || !shell.includes(ROOT_ELEMENT) || !shell.includes('</head>')) return null;
  const { scripts, styles } = chunkFiles(options.manifest, page.chunks);
  const canonical = `${options.publicUrl}${options.pathname}`;
  // After the shell's own stylesheet, as in the browser, where a page's CSS comes with its chunk.
  const pageAssets = styles.map((href) => `  <link rel="stylesheet" crossorigin href="${escapeHtml(href)}" />\n  `).join('');
  const root =
    `<div id="root">${page.html}</div>\n    ` +
    `<script id="${PRERENDERED_DATA_ID}" type="application/json">${scriptSafeJson(page.data)}</script>`;
  // Functions as replacements: the markup may contain "$&"-like sequences.
  return (
    shell
      // The page is readable from its HTML and stylesheet, so the app's script and the page's chunks,
      // which only make it interactive, wait for the first paint: public/app-loader.js fetches them then
      // (CSP-safe: no inline script). Preloaded from the HTML, the chunks were part of the paint's
      // critical path as Lighthouse simulates it (the legal page's markdown chunk, 36 KB: LCP +0.45 s).
      .replace(
        APP_SCRIPT,
        (_tag, src: string) =>
          `<script type="module" id="${APP_SCRIPT_ID}" src="${APP_LOADER}" data-src="${src}" data-chunks="${escapeHtml(scripts.join(' '))}"></script>`,
      )
      .replace(titleMatch[0], () => headTags(page.head, canonical, options.publicUrl))
      .replace('</head>', () => `${pageAssets}</head>`)
      .replace(ROOT_ELEMENT, () => root)
  );
}
