import type { Stripe, StripeElements } from '@stripe/stripe-js';
import { confirmSandboxPayment } from './subscriptions';
import type { SandboxCard } from '../../server/src/contract/sandboxCard';

/** How the person pays: Stripe's card element, or the offline sandbox's test-card form. */
export type PaymentMethodInput = { kind: 'stripe'; stripe: Stripe; elements: StripeElements } | { kind: 'sandbox'; card: SandboxCard };

export const CARD_ELEMENT_MISSING = 'Card element not found';
export const PAYMENT_FAILED = 'Payment failed';

/** Confirms the card payment from the browser (SPEC §4); resolves with the payment status. */
export async function confirmCardPayment(clientSecret: string, method: PaymentMethodInput): Promise<{ status: string }> {
  if (method.kind === 'sandbox') return confirmSandboxPayment(clientSecret, method.card);
  const card = method.elements.getElement('card');
  if (!card) throw new Error(CARD_ELEMENT_MISSING);
  const result = await method.stripe.confirmCardPayment(clientSecret, { payment_method: { card } });
  if (result.error) throw new Error(result.error.message || PAYMENT_FAILED);
  return { status: result.paymentIntent?.status ?? 'unknown' };
}
