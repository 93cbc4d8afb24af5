import type {
  CancelSubscriptionResponse,
  CreateSubscriptionPayload,
  CreateSubscriptionResponse,
  CurrentSubscription,
  CurrentSubscriptionAnswer,
  PaymentsConfig,
  RefundSubscriptionResponse,
  SandboxConfirmPayload,
  SandboxConfirmResponse,
  SubscriptionPlan,
  SubscriptionPlansResponse,
} from '../../server/src/contract/subscriptions';
import type { SandboxCard } from '../../server/src/contract/sandboxCard';
import { apiRequest } from './client';

type CallOptions = { signal?: AbortSignal };

export const PLANS_FALLBACK = 'Failed to load subscription plans';
export const CURRENT_FALLBACK = 'Failed to load current subscription';
export const CREATE_FALLBACK = 'Failed to create subscription';
export const VERIFY_FALLBACK = 'Failed to verify subscription';
export const CANCEL_FALLBACK = 'Failed to cancel subscription';
export const REFUND_FALLBACK = 'Failed to refund your payment. Please try again.';

/** GET /api/subscription-plans */
export function getSubscriptionPlans({ signal }: CallOptions = {}): Promise<SubscriptionPlan[]> {
  return apiRequest<SubscriptionPlansResponse, SubscriptionPlan[]>('/api/subscription-plans', {
    fallback: PLANS_FALLBACK,
    failureText: 'fallback',
    logAs: 'Failed to fetch subscription plans',
    read: (answer) => answer?.data,
    signal,
  });
}

/** GET /api/subscriptions/current: null when the member has none. */
export async function getCurrentSubscription({ signal }: CallOptions = {}): Promise<CurrentSubscriptionAnswer | null> {
  const answer = await apiRequest<CurrentSubscriptionAnswer | null | ''>('/api/subscriptions/current', {
    auth: true,
    fallback: CURRENT_FALLBACK,
    failureText: 'fallback',
    logAs: 'Failed to fetch current subscription',
    signal,
  });
  return answer || null;
}

/**
 * POST /api/subscriptions. The answer's clientSecret is null only when the provider needs no first
 * payment, which no plan does yet.
 */
export function createSubscription(priceId: string, { signal }: CallOptions = {}): Promise<CreateSubscriptionResponse> {
  const payload: CreateSubscriptionPayload = { priceId };
  return apiRequest<CreateSubscriptionResponse>('/api/subscriptions', {
    method: 'POST',
    auth: true,
    body: payload,
    fallback: CREATE_FALLBACK,
    shownAs: (message) => `Failed to initiate subscription: ${message}`,
    signal,
  });
}

/** GET /api/subscriptions/{id}/verify */
export async function verifySubscription(subscriptionId: string, { signal }: CallOptions = {}): Promise<void> {
  await apiRequest<CurrentSubscription>(`/api/subscriptions/${encodeURIComponent(subscriptionId)}/verify`, {
    auth: true,
    fallback: VERIFY_FALLBACK,
    failureText: 'fallback',
    signal,
  });
}

/** POST /api/subscriptions/cancel: access continues until cancelAt. A failed answer reads as SPEC §8's diagnostic line. */
export function cancelSubscription({ signal }: CallOptions = {}): Promise<CancelSubscriptionResponse> {
  return apiRequest<CancelSubscriptionResponse>('/api/subscriptions/cancel', {
    method: 'POST',
    auth: true,
    fallback: CANCEL_FALLBACK,
    failureText: 'diagnostic',
    logAs: CANCEL_FALLBACK,
    signal,
  });
}

/** POST /api/subscriptions/refund (no body): the 30-day money-back guarantee; the server's refusal reads as it is. */
export function requestRefund({ signal }: CallOptions = {}): Promise<RefundSubscriptionResponse> {
  return apiRequest<RefundSubscriptionResponse>('/api/subscriptions/refund', {
    method: 'POST',
    auth: true,
    fallback: REFUND_FALLBACK,
    signal,
  });
}

/** GET /api/payments/config: which payment provider the server uses. */
export function getPaymentsConfig({ signal }: CallOptions = {}): Promise<PaymentsConfig> {
  return apiRequest<PaymentsConfig>('/api/payments/config', { fallback: 'Payments are unavailable right now.', signal });
}

/** POST /api/payments/sandbox/confirm: the offline stand-in for the provider's confirm-card-payment. */
export function confirmSandboxPayment(clientSecret: string, card: SandboxCard, { signal }: CallOptions = {}): Promise<{ status: string }> {
  const payload: SandboxConfirmPayload = { clientSecret, ...card };
  return apiRequest<SandboxConfirmResponse, { status: string }>('/api/payments/sandbox/confirm', {
    method: 'POST',
    body: payload,
    fallback: 'Payment failed',
    read: (answer) => (answer?.paymentIntent ? { status: answer.paymentIntent.status } : undefined),
    signal,
  });
}
