import type { Core } from '@strapi/strapi';
import type { PaymentGateway } from './gateway';
import type { PaymentMode } from '../contract/subscriptions';
import { SandboxGateway } from './sandbox-gateway';
import { StripeGateway } from './stripe-gateway';
import { UID } from '../content-types';

export * from './gateway';
export { SandboxGateway, SandboxCardError, type CardInput } from './sandbox-gateway';
export { StripeGateway, mapStripeCard } from './stripe-gateway';

export interface PaymentsConfig {
  mode?: string;
  stripe?: {
    secretKey?: string;
    publishableKey?: string;
    webhookSecret?: string;
    apiHost?: string;
    apiPort?: string | number;
    apiProtocol?: string;
    timeoutMs?: string | number;
    maxNetworkRetries?: string | number;
  };
  seedPrices?: { monthly?: string; yearly?: string; founders?: string; product?: string };
}

/** Which gateway the configuration selects; throws on an incomplete Stripe configuration. */
export function resolveMode(config: PaymentsConfig): PaymentMode {
  const requested = (config.mode ?? '').trim().toLowerCase();
  if (requested && requested !== 'stripe' && requested !== 'sandbox') {
    throw new Error(`PAYMENTS_MODE must be "stripe" or "sandbox", not "${config.mode}"`);
  }
  const stripe = config.stripe ?? {};
  const mode: PaymentMode = requested ? (requested as PaymentMode) : stripe.secretKey ? 'stripe' : 'sandbox';
  if (mode === 'stripe') {
    const missing = [
      ['STRIPE_SECRET_KEY', stripe.secretKey],
      ['STRIPE_PUBLISHABLE_KEY', stripe.publishableKey],
      ['STRIPE_WEBHOOK_SECRET', stripe.webhookSecret],
    ]
      .filter(([, value]) => !value)
      .map(([name]) => name);
    if (missing.length > 0) {
      throw new Error(`Stripe payments need ${missing.join(', ')} (unset them all to use the sandbox)`);
    }
  }
  return mode;
}

/** A whole number setting (undefined when unset); anything else stops the server with its name. */
function positiveInteger(name: string, value: string | number | undefined, { zero = false } = {}): number | undefined {
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < (zero ? 0 : 1))
    throw new Error(`${name} must be a whole number${zero ? '' : ' above 0'}, not "${value}"`);
  return number;
}

export function createGateway(strapi: Core.Strapi): PaymentGateway {
  const config = (strapi.config.get('payments') ?? {}) as PaymentsConfig;
  const mode = resolveMode(config);

  if (mode === 'stripe') {
    const stripe = config.stripe!;
    const protocol = stripe.apiProtocol ? String(stripe.apiProtocol).toLowerCase() : undefined;
    if (protocol && protocol !== 'http' && protocol !== 'https') {
      throw new Error(`STRIPE_API_PROTOCOL must be "http" or "https", not "${stripe.apiProtocol}"`);
    }
    return new StripeGateway({
      secretKey: stripe.secretKey!,
      publishableKey: stripe.publishableKey!,
      webhookSecret: stripe.webhookSecret!,
      host: stripe.apiHost || undefined,
      port: stripe.apiPort ? Number(stripe.apiPort) : undefined,
      protocol: protocol as 'http' | 'https' | undefined,
      timeoutMs: positiveInteger('STRIPE_TIMEOUT_MS', stripe.timeoutMs),
      maxNetworkRetries: positiveInteger('STRIPE_MAX_NETWORK_RETRIES', stripe.maxNetworkRetries, { zero: true }),
    });
  }

  const store = strapi.store({ type: 'core', name: 'payments_sandbox' });
  return new SandboxGateway({
    storage: {
      get: async <T>(key: string) => ((await store.get({ key })) as T | null) ?? null,
      set: async (key, value) => {
        await store.set({ key, value });
      },
      delete: async (key) => {
        await store.delete({ key });
      },
    },
    async lookupPrice(priceId) {
      const plan = await strapi
        .documents(UID.subscriptionPlan)
        .findFirst({ filters: { stripe_price_id: priceId }, fields: ['duration', 'amount', 'currency'] });
      // duration is required, so a stored plan always has one.
      return plan?.duration ? { interval: plan.duration, amount: plan.amount ?? 0, currency: plan.currency ?? 'usd' } : null;
    },
  });
}
