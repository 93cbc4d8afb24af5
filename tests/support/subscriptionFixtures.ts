import type { CurrentSubscriptionAnswer, PaymentsConfig, SubscriptionPlan } from '../../server/src/contract/subscriptions';

export const monthlyPlan: SubscriptionPlan = {
  id: 1,
  documentId: 'plan-monthly',
  name: 'Carnivo Monthly',
  stripe_price_id: 'price_monthly',
  stripe_product_id: 'prod_carnivo',
  amount: 999,
  currency: 'usd',
  duration: 'month',
  is_active: true,
};

export const yearlyPlan: SubscriptionPlan = {
  ...monthlyPlan,
  id: 2,
  documentId: 'plan-yearly',
  name: 'Carnivo Yearly',
  stripe_price_id: 'price_yearly',
  amount: 9999,
  duration: 'year',
};

export const retiredPlan: SubscriptionPlan = {
  ...monthlyPlan,
  id: 3,
  documentId: 'plan-retired',
  name: 'Carnivo Founders',
  stripe_price_id: 'price_founders',
  amount: 4999,
  duration: 'year',
  is_active: false,
};

// Dated: the server sends null dates only for a subscription the provider has not dated yet.
export const activeSubscription: CurrentSubscriptionAnswer & { currentPeriodEnd: string } = {
  id: 'sub_11',
  status: 'active',
  plan: { id: 1, productName: 'Carnivo Monthly', amount: 999, interval: 'month' },
  startDate: '2026-10-01T00:00:00.000Z',
  currentPeriodEnd: '2026-12-01T00:00:00.000Z',
  cancel_at_period_end: false,
  refundableUntil: null,
  refundableAmount: null,
};

export const sandboxPayments: PaymentsConfig = { mode: 'sandbox', publishableKey: null };
