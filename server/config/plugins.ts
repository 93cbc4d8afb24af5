import path from 'path';
import type { Core } from '@strapi/strapi';
import { uploadProviderConfig } from '../src/uploads/upload-config';

// server/ root, whether this runs from config/ or the compiled dist/config/.
const configParent = path.resolve(__dirname, '..');
const appRoot = path.basename(configParent) === 'dist' ? path.dirname(configParent) : configParent;

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

/**
 * E-mail: real SMTP (nodemailer) when SMTP_HOST is set; otherwise the local outbox provider
 * (server/providers/strapi-provider-email-outbox) writes one .eml file per message to
 * EMAIL_OUTBOX_DIR (default server/.tmp/outbox) and logs "Email to <to> written to <file>".
 */
const emailConfig = (env: Core.Config.Shared.ConfigParams['env']) => {
  const settings = {
    defaultFrom: env('EMAIL_FROM', 'Carnivo <no-reply@carnivo.app>'),
    defaultReplyTo: env('EMAIL_REPLY_TO', env('EMAIL_FROM', 'Carnivo <no-reply@carnivo.app>')),
  };
  const smtpHost = env('SMTP_HOST', '');
  if (smtpHost) {
    const username = env('SMTP_USERNAME', '');
    return {
      provider: 'nodemailer',
      providerOptions: {
        host: smtpHost,
        port: env.int('SMTP_PORT', 587),
        // true: TLS from the first byte (usually port 465); false: STARTTLS when the server offers it.
        secure: env.bool('SMTP_SECURE', false),
        // Well inside the mail queue's lease (EMAIL_LEASE_MS), so a hung server cannot outlive a claim.
        connectionTimeout: env.int('SMTP_TIMEOUT_MS', 15_000),
        greetingTimeout: env.int('SMTP_TIMEOUT_MS', 15_000),
        socketTimeout: env.int('SMTP_TIMEOUT_MS', 15_000) * 2,
        ...(username ? { auth: { user: username, pass: env('SMTP_PASSWORD', '') } } : {}),
      },
      settings,
    };
  }
  return {
    provider: 'strapi-provider-email-outbox',
    providerOptions: {
      // Absolute paths are kept; relative ones are resolved against server/.
      outboxDir: path.resolve(appRoot, env('EMAIL_OUTBOX_DIR', '.tmp/outbox')),
    },
    settings,
  };
};

const config = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Plugin => ({
  email: {
    // Its rate limit guards only the admin panel's forgot-password, per process: off, in favour of
    // global::admin-auth-throttle (shared by every instance).
    config: { ...emailConfig(env), ratelimit: { enabled: false } },
  },
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
      // Local disk (public/uploads) by default; S3-compatible storage when UPLOAD_PROVIDER=s3 or
      // S3_BUCKET is set, so every instance shares the files. Throws at start-up on incomplete S3
      // settings (src/uploads/upload-config.ts, docs/uploads.md).
      ...uploadProviderConfig(process.env),
      // Bytes, every upload (admin panel too). Members' profile pictures: 5 MB at most, whatever this says
      // (extensions/upload/profile-picture-guard.ts).
      sizeLimit: env.int('UPLOAD_SIZE_LIMIT_BYTES', 5 * 1024 * 1024),
      security: {
        allowedTypes: allowedMediaTypes,
        deniedTypes,
      },
    },
  },
});

export default config;
