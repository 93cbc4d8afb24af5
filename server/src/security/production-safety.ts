import type { Core } from '@strapi/strapi';
import type { PaymentsConfig } from '../payments';

/**
 * With NODE_ENV=production the server refuses to start when a deploy would be unsafe:
 * - a secret is missing, a known placeholder (e.g. Strapi's "tobemodified") or too short to resist
 *   guessing: anyone could forge a member's JWT or an admin session;
 * - payments would fall back to the sandbox without PAYMENTS_MODE=sandbox saying so on purpose:
 *   anyone could "pay" with the test card.
 * `npm start` on a laptop opts into the sandbox explicitly (scripts/serve.mjs) and gets random
 * secrets from scripts/ensure-env.js, so it keeps working with no keys.
 */

export const SECRET_VARIABLES = [
  'APP_KEYS',
  'API_TOKEN_SALT',
  'ADMIN_JWT_SECRET',
  'TRANSFER_TOKEN_SALT',
  'JWT_SECRET',
  'ENCRYPTION_KEY',
] as const;

/** Values that example files and tutorials put in these variables. */
const PLACEHOLDERS = new Set([
  'tobemodified',
  'tobemodified1',
  'tobemodified2',
  'changeme',
  'change-me',
  'change_me',
  'secret',
  'your-secret',
  'replace-me',
  'example',
  'test',
  'default',
]);
export const MIN_SECRET_LENGTH = 16;

/** Why a secret value is unusable, or null when it is fine. */
export function secretProblem(value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return 'is missing';
  const parts = value.split(',').map((part) => part.trim());
  if (parts.some((part) => PLACEHOLDERS.has(part.toLowerCase()))) return 'is a placeholder value';
  if (parts.some((part) => part.length < MIN_SECRET_LENGTH)) return `is shorter than ${MIN_SECRET_LENGTH} characters`;
  return null;
}

export function productionProblems(env: NodeJS.ProcessEnv, payments: PaymentsConfig): string[] {
  const problems = SECRET_VARIABLES.flatMap((name) => {
    const problem = secretProblem(env[name]);
    return problem ? [`${name} ${problem}: set it to a long random value (e.g. \`openssl rand -base64 32\`).`] : [];
  });
  const mode = (payments.mode ?? '').trim().toLowerCase();
  if (!mode && !payments.stripe?.secretKey) {
    problems.push(
      'No STRIPE_SECRET_KEY and no PAYMENTS_MODE: payments would fall back to the offline sandbox, where anyone can "pay" with a test card. ' +
        'Set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET, or PAYMENTS_MODE=sandbox to run the sandbox on purpose.',
    );
  }
  // Optional (the metrics are off without it), but when set it must resist guessing like the others.
  const metricsToken = env.METRICS_TOKEN;
  const metricsProblem = metricsToken !== undefined && metricsToken.trim() !== '' ? secretProblem(metricsToken) : null;
  if (metricsProblem)
    problems.push(`METRICS_TOKEN ${metricsProblem}: set it to a long random value, or leave it unset to turn /api/metrics off.`);
  return problems;
}

export function assertProductionSafety(strapi: Core.Strapi): void {
  if (process.env.NODE_ENV !== 'production') return;
  const problems = productionProblems(process.env, (strapi.config.get('payments') ?? {}) as PaymentsConfig);
  if (problems.length > 0) {
    throw new Error(`Refusing to start in production (NODE_ENV=production):\n- ${problems.join('\n- ')}\nSee docs/security.md.`);
  }
}
