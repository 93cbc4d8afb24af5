import type { Core } from '@strapi/strapi';

const config = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Admin => ({
  auth: {
    secret: env('ADMIN_JWT_SECRET')!,
  },
  // Off: its counters live in one process's memory. The admin auth routes are limited by
  // global::admin-auth-throttle instead, shared by every instance (src/middlewares/admin-auth-throttle.ts).
  rateLimit: { enabled: false },
  apiToken: {
    salt: env('API_TOKEN_SALT')!,
  },
  transfer: {
    token: {
      salt: env('TRANSFER_TOKEN_SALT')!,
    },
  },
  secrets: {
    encryptionKey: env('ENCRYPTION_KEY')!,
  },
  // Nothing phones home: no NPS survey, EE promotion or AI features.
  flags: {
    nps: env.bool('FLAG_NPS', false),
    promoteEE: env.bool('FLAG_PROMOTE_EE', false),
    docLinks: env.bool('FLAG_DOC_LINKS', true),
  },
  ai: { enabled: false },
  autoOpen: false,
});

export default config;
