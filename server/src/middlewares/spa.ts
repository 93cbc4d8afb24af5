import fs from 'fs';
import path from 'path';
import type { Core } from '@strapi/strapi';
import { watchLegalEdits } from '../prerender/legal-edits';
import { notFoundShell, withScriptSource } from '../prerender/html';
import { isSpaRoute } from '../contract/routes';
import { createPrerenderer } from '../prerender/prerender';
import { labelUnroutedAnswer } from '../operations/metrics';

/**
 * Serves the built SPA (<repo>/dist, or SPA_DIR) from the same origin as the API.
 * Strapi keeps everything it answers; this only fills its 404s on GET/HEAD,
 * with the file from the SPA dir or index.html (history fallback for the SPA's routes; for any other
 * path, index.html marked noindex, as a 404).
 */

// Paths Strapi owns: its own 404s there must stay JSON, never index.html.
const STRAPI_PREFIXES = [
  '/api',
  '/admin',
  '/uploads',
  '/upload',
  '/i18n',
  '/content-manager',
  '/content-type-builder',
  '/content-releases',
  '/review-workflows',
  '/users-permissions',
  '/email',
  '/documentation',
  '/graphql',
  '/_health',
];

const IMMUTABLE = 'public, max-age=31536000, immutable';
const NOT_BUILT = 'The web app is not built. Run "npm run build" at the repository root, then restart the server.';

const ownedByStrapi = (urlPath: string, adminPath: string): boolean =>
  [...STRAPI_PREFIXES, adminPath].some((prefix) => urlPath === prefix || urlPath.startsWith(`${prefix}/`));

/** Absolute path of a regular file inside root, or null (missing, hidden, or outside root). */
export const resolveFile = (root: string, urlPath: string): string | null => {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const segments = decoded.split(/[\\/]+/).filter(Boolean);
  if (segments.some((segment) => segment.startsWith('.'))) return null;
  const file = path.resolve(root, ...segments);
  if (!file.startsWith(root + path.sep)) return null;
  try {
    return fs.statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
};

const spa: Core.MiddlewareFactory = (_config, { strapi }) => {
  const root = path.resolve(process.env.SPA_DIR || path.resolve(strapi.dirs.app.root, '..', 'dist'));
  const adminPath = strapi.config.get<string>('admin.path', '/admin');
  const prerenderer = createPrerenderer(strapi, root);
  watchLegalEdits(strapi, prerenderer);

  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ownedByStrapi(ctx.path, adminPath)) {
      return next();
    }

    // Strapi itself redirects "/" to the admin panel; the site's home page wins.
    if (ctx.path !== '/') {
      await next();
      if (ctx.status !== 404 || ctx.body != null) return;
    }
    // One metrics label for every page and file of the SPA, whatever the URL.
    labelUnroutedAnswer(ctx, 'spa');

    const file = ctx.path === '/' ? null : resolveFile(root, ctx.path);
    if (file) {
      // The build's .br / .gz next to the file (scripts/precompress.ts) when the client takes it:
      // brotli first, then gzip, else the file as is. Typed as the original; global::compression
      // leaves an encoded body alone.
      ctx.vary('Accept-Encoding');
      const variant = (
        [
          ['br', '.br'],
          ['gzip', '.gz'],
        ] as const
      )
        .map(([encoding, suffix]) => ({ encoding, file: file + suffix }))
        .find(
          (candidate) =>
            ctx.acceptsEncodings(candidate.encoding) === candidate.encoding &&
            fs.statSync(candidate.file, { throwIfNoEntry: false })?.isFile(),
        );
      if (variant) ctx.set('Content-Encoding', variant.encoding);
      const sent = variant?.file ?? file;
      ctx.status = 200;
      ctx.type = path.extname(file);
      ctx.length = fs.statSync(sent).size;
      ctx.set('Cache-Control', ctx.path.startsWith('/assets/') ? IMMUTABLE : 'no-cache');
      ctx.body = fs.createReadStream(sent);
      return;
    }

    // A missing hashed asset is a real 404; index.html would be served as broken JS/CSS.
    if (ctx.path.startsWith('/assets/')) {
      ctx.status = 404;
      return;
    }

    const index = path.join(root, 'index.html');
    if (!fs.existsSync(index)) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.set('Cache-Control', 'no-store');
      ctx.body = NOT_BUILT;
      return;
    }
    // No route of the SPA: a 404 that search engines drop, not a copy of a page (a soft 404). The shell's
    // router still takes a visitor to / (SPEC §2).
    if (!isSpaRoute(ctx.path)) {
      ctx.status = 404;
      ctx.type = 'html';
      ctx.set('Cache-Control', 'no-cache');
      ctx.set('X-Robots-Tag', 'noindex');
      ctx.body = notFoundShell(fs.readFileSync(index, 'utf8'));
      return;
    }
    // Public pages come as full HTML (prerendered); every other route gets the shell.
    const prerendered = await prerenderer.page(ctx.path, ctx.search);
    if (prerendered && 'redirect' in prerendered) {
      ctx.status = 301;
      ctx.redirect(prerendered.redirect);
      return;
    }
    ctx.status = 200;
    ctx.type = 'html';
    ctx.set('Cache-Control', prerendered?.personal ? 'private, no-store' : 'no-cache');
    // The page's one inline script (/profile's), allowed by its hash, for this answer only.
    const csp = ctx.response.get('Content-Security-Policy');
    if (prerendered?.scriptSource && csp) ctx.set('Content-Security-Policy', withScriptSource(csp, prerendered.scriptSource));
    ctx.body = prerendered ? prerendered.html : fs.createReadStream(index);
  };
};

export default spa;
