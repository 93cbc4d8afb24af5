import type { Core } from '@strapi/strapi';

/**
 * Limits and origins (docs/security.md). Read as strapi.config.get('security').
 * Counters are shared through Redis when REDIS_URL is set (src/security/limits.ts).
 */
export default ({ env }: Core.Config.Shared.ConfigParams) => ({
  /** Every users-permissions and admin-panel auth route: attempts per route and client address. */
  authRateLimit: {
    enabled: env.bool('AUTH_RATELIMIT_ENABLED', true),
    max: env.int('AUTH_RATELIMIT_MAX', 10),
    intervalMs: env.int('AUTH_RATELIMIT_INTERVAL_MS', 60_000),
  },
  /** Registration, forgot-password (members' and the admin panel's), send-email-confirmation: per client address, whatever the e-mail. */
  addressLimit: {
    perMinute: env.int('AUTH_ADDRESS_LIMIT_PER_MINUTE', 10),
    perDay: env.int('AUTH_ADDRESS_LIMIT_PER_DAY', 50),
  },
  /**
   * Failed log-ins per account, members and administrators (src/security/login-throttle.ts): the
   * first lock's length and the longest (each further lock within a day doubles).
   */
  loginThrottle: {
    lockSec: env.int('LOGIN_LOCK_SEC', 15 * 60),
    maxLockSec: env.int('LOGIN_MAX_LOCK_SEC', 60 * 60),
  },
  /**
   * E-mail change requests (each mails the new address and the old one), counted before anything is
   * queued: per member an hour, and per target address a day whoever asks (src/api/account/services/email-change.ts).
   */
  emailChangeLimit: {
    perMemberPerHour: env.int('EMAIL_CHANGE_LIMIT_PER_HOUR', 3),
    perAddressPerDay: env.int('EMAIL_CHANGE_LIMIT_PER_ADDRESS_PER_DAY', 3),
  },
  /** How long a step-up (proof of presence on one session) lasts, in seconds; unset, STEP_UP_WINDOW_SEC of src/security/step-up.ts. */
  stepUpWindowSec: env.int('STEP_UP_WINDOW_SEC'),
  /** Profile pictures a member may upload an hour. */
  uploadsPerHour: env.int('UPLOAD_LIMIT_PER_HOUR', 10),
  /** Origins besides the site's own (PUBLIC_URL) that may call the API from a browser. */
  corsOrigins: env.array('CORS_ORIGINS', []) as string[],
});
