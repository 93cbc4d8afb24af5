import type { Core } from '@strapi/strapi';

const allowedMediaTypes = [
  'image/*',
  'video/*',
  'audio/*',
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.*',
  'text/plain',
  'text/csv',
];

const deniedTypes = [
  'image/svg+xml',
  'application/vnd.microsoft.portable-executable',
  'application/x-msdownload',
  'application/x-msdos-program',
  'application/x-executable',
  'application/x-dosexec',
  'application/x-sh',
  'text/x-shellscript',
  'application/x-mach-binary',
];

const config = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Plugin => ({
  'users-permissions': {
    config: {
      // The SPA keeps only the plugin JWT in localStorage (SPEC §3), no refresh-token sessions.
      jwtManagement: 'legacy-support',
      // Sessions last 7 days; after that the user logs in again.
      jwt: { expiresIn: '7d' },
      // koa2-ratelimit on the auth routes. Strapi keys it by path + client IP, plus the e-mail
      // for forgot-password/register/send-email-confirmation (not for /auth/local, by design).
      ratelimit: {
        enabled: env.bool('AUTH_RATELIMIT_ENABLED', true),
        interval: env.int('AUTH_RATELIMIT_INTERVAL_MS', 60_000),
        max: env.int('AUTH_RATELIMIT_MAX', 10),
      },
      // Registration accepts only username, email and password (Strapi always allows those three).
      register: { allowedFields: [] },
    },
  },
  upload: {
    config: {
      security: {
        allowedTypes: allowedMediaTypes,
        deniedTypes,
      },
    },
  },
});

export default config;
