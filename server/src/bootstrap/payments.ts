import type { Core } from '@strapi/strapi';
import type { PaymentsConfig } from '../payments';
import { UID } from '../content-types';
import { subscriptionService } from '../api/subscription/services/subscription';

/** The plans seeded on first start (editors change them in the admin panel afterwards). */
export function seedPlans(config: PaymentsConfig) {
  const prices = config.seedPrices ?? {};
  const product = prices.product || 'prod_sandbox_carnivo';
  return [
    {
      name: 'Carnivo Monthly',
      stripe_price_id: prices.monthly || 'price_sandbox_monthly',
      stripe_product_id: product,
      amount: 999,
      currency: 'usd',
      duration: 'month' as const,
      is_active: true,
    },
    {
      name: 'Carnivo Yearly',
      stripe_price_id: prices.yearly || 'price_sandbox_yearly',
      stripe_product_id: product,
      amount: 7999,
      currency: 'usd',
      duration: 'year' as const,
      is_active: true,
    },
    {
      name: 'Carnivo Founders (retired)',
      stripe_price_id: prices.founders || 'price_sandbox_founders',
      stripe_product_id: product,
      amount: 4999,
      currency: 'usd',
      duration: 'year' as const,
      is_active: false,
    },
  ];
}

/**
 * Seeds the subscription plans when there are none (first start). Idempotent: once plans exist,
 * nothing is added back or overwritten, so admin edits and deletions stay.
 */
export async function seedSubscriptionPlans(strapi: Core.Strapi): Promise<void> {
  const plans = strapi.documents(UID.subscriptionPlan);
  if ((await plans.count({})) > 0) return;
  const config = (strapi.config.get('payments') ?? {}) as PaymentsConfig;
  for (const data of seedPlans(config)) {
    await plans.create({ data });
    strapi.log.info(`[seed] created subscription plan ${data.name} (${data.stripe_price_id})`);
  }
}

/**
 * Creates the payment gateway (failing the start on an incomplete Stripe configuration), and
 * registers the subscriptions' clean-up with account deletion: the member's open subscriptions
 * are canceled immediately at the gateway, their payment customer (name, e-mail, cards) is
 * deleted there, and their records removed.
 */
export async function setupPayments(strapi: Core.Strapi): Promise<void> {
  const gateway = strapi.service('api::payment.gateway').get();
  if (gateway.mode === 'sandbox') {
    // Loud in production, where a forgotten key would let anyone "pay" with the test card.
    strapi.log[process.env.NODE_ENV === 'production' ? 'warn' : 'info'](
      '[payments] SANDBOX mode: no Stripe keys are set, payments are simulated (card 4242 4242 4242 4242 pays). ' +
        'Set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET to take real payments.',
    );
  } else {
    strapi.log.info('[payments] Stripe mode');
  }

  const deletion = strapi.service('api::account.account-deletion') as
    | { registerCleanup?: (name: string, fn: (user: { id: number }) => Promise<void>) => void; cleanups?: () => string[] }
    | undefined;
  if (deletion?.registerCleanup && !deletion.cleanups?.().includes('subscriptions')) {
    deletion.registerCleanup('subscriptions', async (user) => {
      const { canceled, removed, customersDeleted } = await subscriptionService(strapi).removeMemberSubscriptions(user.id);
      if (removed > 0 || customersDeleted > 0) {
        strapi.log.info(
          `[subscriptions] user ${user.id}: canceled ${canceled}, removed ${removed} subscription record(s), ` +
            `deleted ${customersDeleted} payment customer(s)`,
        );
      }
    });
  }
}
