import { screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { billingHistoryMachine } from '../../machines/billingHistory.machine';
import { manageBillingMachine } from '../../machines/manageBilling.machine';
import { subscriptionCancelMachine } from '../../machines/subscriptionCancel.machine';
import { subscriptionOverviewMachine } from '../../machines/subscriptionOverview.machine';
import { subscriptionPurchaseMachine } from '../../machines/subscriptionPurchase.machine';
import type {
  CancelSubscriptionResponse,
  CreateSubscriptionResponse,
  CurrentSubscription,
  PaymentsConfig,
  SandboxCard,
  SubscriptionPlan,
} from '../../server/src/contract/subscriptions';
import type { InvoicePage } from '../../src/api/billing';
import type { PaymentMethodInput } from '../../src/payments/confirmPayment';
import { deferredCalls } from './deferred';
import { see, type Inspect } from './pathTests';
import { renderProfile } from './profileHarness';
import { monthlyPlan, retiredPlan, sandboxPayments } from './subscriptionFixtures';

/**
 * The profile's Subscriptions tab with the real tab machine and its three real flows, every API call
 * a double. The overview's loads answer at once from `server` unless `answerLoads` is false, the
 * billing history's pages (`server.invoicePages`, no invoices by default) unless `answerHistory` is false;
 * purchase, cancel, resume and billing calls wait for the test to settle them.
 */
export function openSubscriptionsTab(
  options: { inspect?: Inspect; current?: CurrentSubscription | null; answerLoads?: boolean; answerHistory?: boolean; payments?: PaymentsConfig; invoicePages?: InvoicePage[] } = {},
) {
  const server = {
    plans: [monthlyPlan, retiredPlan] as SubscriptionPlan[],
    current: options.current ?? null,
    payments: options.payments ?? sandboxPayments,
    invoicePages: options.invoicePages ?? [],
  };
  const loads = {
    plans: deferredCalls<void, SubscriptionPlan[]>(),
    current: deferredCalls<void, CurrentSubscription | null>(),
    payments: deferredCalls<void, PaymentsConfig>(),
  };
  const answerLoads = options.answerLoads ?? true;
  const load = <T>(calls: { handler: (input: void) => Promise<T>; last: () => { settle: { resolve: (value: T) => void } } }, answer: () => T) => {
    const call = calls.handler();
    if (answerLoads) calls.last().settle.resolve(answer());
    return call;
  };
  const creates = deferredCalls<{ priceId: string }, CreateSubscriptionResponse>();
  const confirmations = deferredCalls<{ clientSecret: string; method: PaymentMethodInput }, { status: string }>();
  const verifications = deferredCalls<{ subscriptionId: string }, void>();
  const cancels = deferredCalls<void, CancelSubscriptionResponse>();
  const resumes = deferredCalls<void, CurrentSubscription>();
  const invoiceLoads = deferredCalls<{ page: number }, InvoicePage>();
  const answerHistory = options.answerHistory ?? true;
  const portals = deferredCalls<void, string>();
  const cardUpdates = deferredCalls<SandboxCard, string>();
  const goToPortal = vi.fn<(url: string) => void>();
  const flows = {
    subscriptionOverview: subscriptionOverviewMachine.provide({
      actors: {
        loadPlans: fromPromise(() => load(loads.plans, () => server.plans)),
        loadCurrent: fromPromise(() => load(loads.current, () => server.current)),
        loadPayments: fromPromise(() => load(loads.payments, () => server.payments)),
      },
    }),
    subscriptionPurchase: subscriptionPurchaseMachine.provide({
      actors: {
        createSubscription: fromPromise(({ input }: { input: { priceId: string } }) => creates.handler(input)),
        confirmPayment: fromPromise(({ input }: { input: { clientSecret: string; method: PaymentMethodInput } }) => confirmations.handler(input)),
        verifySubscription: fromPromise(({ input }: { input: { subscriptionId: string } }) => verifications.handler(input)),
      },
    }),
    subscriptionCancel: subscriptionCancelMachine.provide({
      actors: { cancelSubscription: fromPromise(() => cancels.handler()), resumeSubscription: fromPromise(() => resumes.handler()) },
    }),
    billingHistory: billingHistoryMachine.provide({
      actors: {
        loadInvoices: fromPromise(({ input }: { input: { page: number } }) => {
          const call = invoiceLoads.handler(input);
          if (answerHistory) invoiceLoads.last().settle.resolve(server.invoicePages[input.page - 1] ?? { invoices: [], hasMore: false });
          return call;
        }),
      },
    }),
    manageBilling: manageBillingMachine.provide({
      actors: {
        openPortal: fromPromise(() => portals.handler()),
        updateCard: fromPromise(({ input }: { input: SandboxCard }) => cardUpdates.handler(input)),
      },
      actions: { goToPortal: (_, url) => goToPortal(url) },
    }),
  };
  const page = renderProfile('subscriptions', flows, {}, options.inspect);
  // The profile (GET /api/users/me) is kept apart from `server`, the subscription API's answers.
  return {
    ...page,
    profile: page.server,
    server,
    loads,
    creates,
    confirmations,
    verifications,
    cancels,
    resumes,
    invoiceLoads,
    portals,
    cardUpdates,
    goToPortal,
  };
}
export type SubscriptionsTabPage = ReturnType<typeof openSubscriptionsTab>;

export const subscriptionsTab = () => screen.getByRole('region', { name: 'Subscriptions' });
export const paymentDialog = () => screen.queryByRole('dialog', { name: 'Complete your subscription' });
export const cancelDialog = () => screen.queryByRole('alertdialog', { name: 'Cancel Subscription' });
export const subscribeButton = (plan: SubscriptionPlan) =>
  within(subscriptionsTab()).getByRole('button', { name: `Subscribe to ${plan.name}` }) as HTMLButtonElement;

/** The alert and the status line of the tab, exactly (null for none). */
export async function expectMessages(expected: { alert?: string | null; notice?: string | null }) {
  const alert = expected.alert ?? null;
  const notice = expected.notice ?? null;
  await see(alert ? `the alert '${alert}'` : 'no alert', () =>
    expect(within(subscriptionsTab()).queryByRole('alert')?.textContent ?? null).toBe(alert),
  );
  await see(notice ? `the notice '${notice}'` : 'no notice', () =>
    expect(within(subscriptionsTab()).queryByRole('status')?.textContent ?? null).toBe(notice),
  );
}

/** Waits for the API double to have been called `count` times, so the test can answer the last call. */
export function called(what: string, calls: readonly unknown[], count: number) {
  return see(`${what} (call ${count})`, () => expect(calls).toHaveLength(count));
}
