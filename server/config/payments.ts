import type { Core } from '@strapi/strapi';

/**
 * Payments (see docs/payments.md). Stripe mode when STRIPE_SECRET_KEY is set (or PAYMENTS_MODE=stripe),
 * otherwise the in-process sandbox. Read as strapi.config.get('payments').
 */
export default ({ env }: Core.Config.Shared.ConfigParams) => ({
  /** '' (automatic), 'stripe' or 'sandbox'. */
  mode: env('PAYMENTS_MODE', ''),
  stripe: {
    secretKey: env('STRIPE_SECRET_KEY', ''),
    publishableKey: env('STRIPE_PUBLISHABLE_KEY', ''),
    webhookSecret: env('STRIPE_WEBHOOK_SECRET', ''),
    // Optional API endpoint override (e.g. a local double in tests, or stripe-mock).
    apiHost: env('STRIPE_API_HOST', ''),
    apiPort: env('STRIPE_API_PORT', ''),
    apiProtocol: env('STRIPE_API_PROTOCOL', ''),
    // A slow Stripe must not hold a member's purchase (and their row lock) for the SDK's 80 s, three times.
    timeoutMs: env('STRIPE_TIMEOUT_MS', '5000'),
    // Unset: the SDK's default (2 retries).
    maxNetworkRetries: env('STRIPE_MAX_NETWORK_RETRIES', ''),
  },
  /** Price ids of the seeded plans (first start only; edit plans in the admin panel afterwards). */
  seedPrices: {
    monthly: env('STRIPE_PRICE_MONTHLY', 'price_sandbox_monthly'),
    yearly: env('STRIPE_PRICE_YEARLY', 'price_sandbox_yearly'),
    founders: env('STRIPE_PRICE_FOUNDERS', 'price_sandbox_founders'),
    product: env('STRIPE_PRODUCT_ID', 'prod_sandbox_carnivo'),
  },
});
