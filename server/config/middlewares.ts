import type { Core } from '@strapi/strapi';

// Third-party origins the SPA needs. Later features add their hosts here
// (Stripe: js.stripe.com / api.stripe.com / hooks.stripe.com; Google: accounts.google.com;
// Apple: appleid.cdn-apple.com / appleid.apple.com; live-chat widget).
// Stripe.js / Elements, as Stripe documents its CSP (https://docs.stripe.com/security/guide#content-security-policy).
const STRIPE = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  connect: ['https://api.stripe.com', 'https://m.stripe.network'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com', 'https://*.stripe.com', 'https://m.stripe.network'],
  img: ['https://*.stripe.com'],
};

const csp: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'", ...STRIPE.script],
  'connect-src': ["'self'", ...STRIPE.connect],
  'img-src': ["'self'", 'data:', 'blob:', ...STRIPE.img],
  'media-src': ["'self'", 'data:', 'blob:'],
  'frame-src': ["'self'", ...STRIPE.frame],
};

const config: Core.Config.Middlewares = [
  'strapi::logger',
  'strapi::errors',
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
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::query',
  // includeUnparsed: the raw JSON stays at ctx.request.body[Symbol.for('unparsedBody')]; Stripe's
  // webhook signature is computed over it (api::payment.payment.webhook).
  { name: 'strapi::body', config: { includeUnparsed: true } },
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
  // Last, so it sees what Strapi's router answered.
  'global::spa',
];

export default config;
