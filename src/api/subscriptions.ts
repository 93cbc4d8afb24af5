import { apiClient, bearerHeaders } from './client';
import { ApiError, isFetchError, toApiError } from './errors';

/** SPEC §3 subscription plan; amount is in cents. */
export type SubscriptionPlan = {
  id: number;
  documentId: string;
  name: string;
  stripe_price_id: string;
  stripe_product_id: string;
  amount: number;
  currency: string;
  duration: string;
  is_active: boolean;
};

/** SPEC §3 current subscription. */
export type CurrentSubscription = {
  id: number | string;
  status: string;
  /** Null when the plan was deleted since (the server keeps the subscription). */
  plan: { id: number | string; productName: string; amount: number; interval: string } | null;
  startDate: string;
  currentPeriodEnd: string;
  cancel_at_period_end: boolean;
};

export type PaymentsConfig = { mode: 'stripe' | 'sandbox'; publishableKey: string | null };

type CallOptions = { signal?: AbortSignal };

export const PLANS_FALLBACK = 'Failed to load subscription plans';
export const CURRENT_FALLBACK = 'Failed to load current subscription';
export const CREATE_FALLBACK = 'Failed to create subscription';
export const VERIFY_FALLBACK = 'Failed to verify subscription';
export const CANCEL_FALLBACK = 'Failed to cancel subscription';

/** The spec's diagnostic form, "{what}: {status} {statusText} - {body}", for the console. */
function diagnostic(what: string, error: unknown): string {
  if (isFetchError(error)) {
    const body = typeof error.data === 'string' ? error.data : JSON.stringify(error.data ?? '');
    return `${what}: ${error.status ?? ''} ${error.statusText ?? ''} - ${body}`;
  }
  return `${what}: ${error instanceof Error ? error.message : String(error)}`;
}

/** GET /api/subscription-plans */
export async function getSubscriptionPlans({ signal }: CallOptions = {}): Promise<SubscriptionPlan[]> {
  try {
    const response = await apiClient<{ data: SubscriptionPlan[] }>('/api/subscription-plans', { signal });
    return response.data;
  } catch (error) {
    console.error(diagnostic('Failed to fetch subscription plans', error));
    throw new ApiError(PLANS_FALLBACK, isFetchError(error) ? error.status : undefined);
  }
}

/** GET /api/subscriptions/current: null when the member has none. */
export async function getCurrentSubscription({ signal }: CallOptions = {}): Promise<CurrentSubscription | null> {
  try {
    const subscription = await apiClient<CurrentSubscription | null | ''>('/api/subscriptions/current', { headers: bearerHeaders(), signal });
    return subscription || null;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    console.error(diagnostic('Failed to fetch current subscription', error));
    throw new ApiError(CURRENT_FALLBACK, isFetchError(error) ? error.status : undefined);
  }
}

/** POST /api/subscriptions */
export async function createSubscription(
  priceId: string,
  { signal }: CallOptions = {},
): Promise<{ clientSecret: string; subscriptionId: string }> {
  try {
    return await apiClient('/api/subscriptions', { method: 'POST', headers: bearerHeaders(), body: { priceId }, signal });
  } catch (error) {
    const reason = toApiError(error, CREATE_FALLBACK);
    throw new ApiError(`Failed to initiate subscription: ${reason.message}`, reason instanceof ApiError ? reason.status : undefined);
  }
}

/** GET /api/subscriptions/{id}/verify */
export async function verifySubscription(subscriptionId: string, { signal }: CallOptions = {}): Promise<void> {
  try {
    await apiClient(`/api/subscriptions/${encodeURIComponent(subscriptionId)}/verify`, { headers: bearerHeaders(), signal });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(VERIFY_FALLBACK, isFetchError(error) ? error.status : undefined);
  }
}

/** POST /api/subscriptions/cancel: access continues until cancelAt. */
export async function cancelSubscription({ signal }: CallOptions = {}): Promise<{ cancelAt: string }> {
  try {
    return await apiClient('/api/subscriptions/cancel', { method: 'POST', headers: bearerHeaders(), signal });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    console.error(diagnostic('Failed to cancel subscription', error));
    const message = isFetchError(error) ? (error.data as { error?: { message?: string } } | undefined)?.error?.message : undefined;
    throw new ApiError(message ? `${CANCEL_FALLBACK}: ${message}` : CANCEL_FALLBACK, isFetchError(error) ? error.status : undefined);
  }
}

/** GET /api/payments/config: which payment provider the server uses. */
export async function getPaymentsConfig({ signal }: CallOptions = {}): Promise<PaymentsConfig> {
  try {
    return await apiClient<PaymentsConfig>('/api/payments/config', { signal });
  } catch (error) {
    throw toApiError(error, 'Payments are unavailable right now.');
  }
}

export type SandboxCard = { cardNumber: string; expiry: string; cvc: string };

/** POST /api/payments/sandbox/confirm: the offline stand-in for the provider's confirm-card-payment. */
export async function confirmSandboxPayment(
  clientSecret: string,
  card: SandboxCard,
  { signal }: CallOptions = {},
): Promise<{ status: string }> {
  try {
    const { paymentIntent } = await apiClient<{ paymentIntent: { id: string; status: string } }>('/api/payments/sandbox/confirm', {
      method: 'POST',
      body: { clientSecret, ...card },
      signal,
    });
    return { status: paymentIntent.status };
  } catch (error) {
    throw toApiError(error, 'Payment failed');
  }
}
