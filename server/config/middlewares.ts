import type { Core } from '@strapi/strapi';

// Third-party origins the SPA needs. Later features add their hosts here
// (Stripe: js.stripe.com / api.stripe.com / hooks.stripe.com; Google: accounts.google.com;
// Apple: appleid.cdn-apple.com / appleid.apple.com; live-chat widget).
const csp: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'connect-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'media-src': ["'self'", 'data:', 'blob:'],
  'frame-src': ["'self'"],
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
  'strapi::body',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
  // Last, so it sees what Strapi's router answered.
  'global::spa',
];

export default config;
