import type { Core } from '@strapi/strapi';
import { uploadMediaOrigins } from '../src/uploads/upload-config';

// Third-party origins the SPA needs: Stripe, Google, Apple and the live-chat widget.
// Stripe.js / Elements, as Stripe documents its CSP (https://docs.stripe.com/security/guide#content-security-policy).
const STRIPE = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  connect: ['https://api.stripe.com', 'https://m.stripe.network'],
  frame: [
    'https://js.stripe.com',
    'https://*.js.stripe.com',
    'https://hooks.stripe.com',
    'https://*.stripe.com',
    'https://m.stripe.network',
  ],
  img: ['https://*.stripe.com'],
};

// Google Identity Services, as Google documents its CSP
// (https://developers.google.com/identity/gsi/web/guides/get-google-api-clientid#content_security_policy);
// its stylesheet (accounts.google.com/gsi/style) is covered by the default style-src "https:".
const GOOGLE = {
  script: ['https://accounts.google.com/gsi/client'],
  connect: ['https://accounts.google.com/gsi/'],
  frame: ['https://accounts.google.com/gsi/'],
};
// Sign in with Apple JS: the script from Apple's CDN; the sign-in itself talks to appleid.apple.com.
const APPLE = {
  script: ['https://appleid.cdn-apple.com'],
  connect: ['https://appleid.apple.com'],
  frame: ['https://appleid.apple.com'],
};

// The Support tab's tawk.to widget, allowed only when the SPA was built with its ids
// (VITE_TAWK_PROPERTY_ID / VITE_TAWK_WIDGET_ID), as tawk.to documents its CSP.
const liveChatConfigured = Boolean(process.env.VITE_TAWK_PROPERTY_ID && process.env.VITE_TAWK_WIDGET_ID);
const TAWK = liveChatConfigured
  ? {
      script: ['https://embed.tawk.to', 'https://cdn.jsdelivr.net'],
      connect: ['https://*.tawk.to', 'wss://*.tawk.to'],
      frame: ['https://*.tawk.to'],
      img: ['https://*.tawk.to', 'https://tawk.link'],
    }
  : { script: [], connect: [], frame: [], img: [] };

// Uploads on S3 (docs/uploads.md): pictures load from the bucket's or CDN's
// origin (S3_PUBLIC_URL), not from the site; none on local disk.
const UPLOADS = uploadMediaOrigins(process.env);

const csp: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'", ...STRIPE.script, ...GOOGLE.script, ...APPLE.script, ...TAWK.script],
  'connect-src': ["'self'", ...STRIPE.connect, ...GOOGLE.connect, ...APPLE.connect, ...TAWK.connect],
  'img-src': ["'self'", 'data:', 'blob:', ...UPLOADS, ...STRIPE.img, ...TAWK.img],
  'media-src': ["'self'", 'data:', 'blob:', ...UPLOADS],
  'frame-src': ["'self'", ...STRIPE.frame, ...GOOGLE.frame, ...APPLE.frame, ...TAWK.frame],
};

/**
 * Browser origins allowed to call the API cross-origin with credentials: the site's own (PUBLIC_URL)
 * and CORS_ORIGINS. Any other origin gets no CORS headers, so the browser keeps its answer from
 * the page; a "*" in CORS_ORIGINS is ignored (it would reflect every origin with credentials).
 */
export function allowedOrigins(env: NodeJS.ProcessEnv = process.env): string[] {
  const origins = [env.PUBLIC_URL || 'http://localhost:1337', ...(env.CORS_ORIGINS ?? '').split(',')]
    .map((value) => value.trim())
    .filter((value) => value !== '' && value !== '*')
    .flatMap((value) => {
      try {
        return [new URL(value).origin];
      } catch {
        throw new Error(`CORS_ORIGINS / PUBLIC_URL: "${value}" is not a URL origin such as https://carnivo.example`);
      }
    });
  return [...new Set(origins)];
}

const config: Core.Config.Middlewares = [
  // First: the request id, answered in X-Request-Id and carried by every log line of the request
  // (src/middlewares/request-id.ts), whatever answers it, errors included.
  'global::request-id',
  // Counts requests in flight so a stop signal lets them finish (src/operations/shutdown.ts).
  'global::in-flight',
  // In place of strapi::logger: the request's log line and its metrics (src/middlewares/request-observer.ts).
  'global::request-observer',
  // Brotli/gzip of text responses from 1 KB (src/middlewares/compression.ts); outside strapi::errors,
  // so error bodies are compressed too. Responses only: the webhook's raw request body is untouched.
  'global::compression',
  'strapi::errors',
  // While the database cannot be reached: 503 with Retry-After instead of a 500 or a 401
  // (src/middlewares/database-unavailable.ts); inside strapi::errors, so it sees what the routes threw.
  'global::database-unavailable',
  // A signed-out session's 401 says so (src/middlewares/signed-out-sessions.ts).
  'global::signed-out-sessions',
  {
    name: 'strapi::security',
    config: {
      contentSecurityPolicy: {
        useDefaults: true,
        // Joined into strings: Strapi deep-merges arrays with its defaults index by index,
        // which would silently re-add e.g. "https:" to connect-src.
        directives: {
          ...Object.fromEntries(Object.entries(csp).map(([name, sources]) => [name, sources.join(' ')])),
          upgradeInsecureRequests: null,
        },
      },
    },
  },
  { name: 'strapi::cors', config: { origin: allowedOrigins() } },
  'strapi::poweredBy',
  'strapi::query',
  // Unreadable bodies answer 400/413/415 instead of 500 (src/middlewares/body-errors.ts); body-parsed
  // marks the body as read, so errors from the routes pass through untouched.
  'global::body-errors',
  // includeUnparsed: the raw JSON stays at ctx.request.body[Symbol.for('unparsedBody')]; Stripe's
  // webhook signature is computed over it (api::payment.payment.webhook).
  { name: 'strapi::body', config: { includeUnparsed: true } },
  'global::body-parsed',
  // Control characters (NUL...) in the path, query or body, and query shapes outside Strapi's grammar,
  // answer 400 before any route reads them (src/middlewares/input-rules.ts).
  'global::input-rules',
  // The security and internal tables answer 404 on the admin content routes, for every role
  // (src/middlewares/admin-content-guard.ts); after the body, which may name one.
  'global::admin-content-guard',
  // The admin panel's auth routes: per address and per administrator, shared by every instance
  // (src/middlewares/admin-auth-throttle.ts); after the body, which holds the e-mail.
  'global::admin-auth-throttle',
  'strapi::session',
  'strapi::favicon',
  // /robots.txt and /sitemap.xml from PUBLIC_URL (src/middlewares/crawler-files.ts).
  'global::crawler-files',
  'strapi::public',
  // Last, so it sees what Strapi's router answered.
  'global::spa',
];

export default config;
