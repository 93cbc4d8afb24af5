import { screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { billingHistoryMachine } from '../../machines/billingHistory.machine';
import { cardOnFileMachine } from '../../machines/cardOnFile.machine';
import { manageBillingMachine } from '../../machines/manageBilling.machine';
import { subscriptionCancelMachine } from '../../machines/subscriptionCancel.machine';
import { subscriptionOverviewMachine } from '../../machines/subscriptionOverview.machine';
import { subscriptionPurchaseMachine } from '../../machines/subscriptionPurchase.machine';
import { subscriptionRefundMachine } from '../../machines/subscriptionRefund.machine';
import type {
  CancelSubscriptionResponse,
  CreateSubscriptionResponse,
  CurrentSubscription,
  CurrentSubscriptionAnswer,
  PaymentsConfig,
  RefundSubscriptionResponse,
  SubscriptionPlan,
} from '../../server/src/contract/subscriptions';
import type { SandboxCard } from '../../server/src/contract/sandboxCard';
import type { InvoicePage } from '../../machines/services/billing';
import type { CardOnFile } from '../../server/src/contract/billing';
import type { PaymentMethodInput } from '../../machines/services/confirmPayment';
import { deferredCalls } from './deferred';
import { see, type Inspect } from './pathTests';
import { settle } from './settle';
import { seeMessages } from './pathSteps';
import { renderProfile } from './profileHarness';
import { monthlyPlan, retiredPlan, sandboxPayments } from './subscriptionFixtures';

/**
 * The profile's Subscriptions tab with the real tab machine and its three real flows, every API call
 * a double. The overview's loads answer at once from `server` unless `answerLoads` is false, the
 * billing history's pages (`server.invoicePages`, no invoices by default) unless `answerHistory` is false,
 * the card on file (`server.card`, none by default) unless `answerCard` is false; purchase, cancel,
 * resume, refund and billing calls wait for the test to settle them.
 */
type TabOptions = {
  inspect?: Inspect;
  current?: CurrentSubscriptionAnswer | null;
  /** The plans the server lists: the monthly and the retired one unless given. */
  plans?: SubscriptionPlan[];
  answerLoads?: boolean;
  answerHistory?: boolean;
  answerCard?: boolean;
  payments?: PaymentsConfig;
  invoicePages?: InvoicePage[];
  card?: CardOnFile | null;
};

export function openSubscriptionsTab(options: TabOptions = {}) {
  const server = {
    plans: options.plans ?? [monthlyPlan, retiredPlan],
    current: options.current ?? null,
    payments: options.payments ?? sandboxPayments,
    invoicePages: options.invoicePages ?? [],
    card: options.card ?? null,
  };
  const loads = {
    plans: deferredCalls<void, SubscriptionPlan[]>(),
    current: deferredCalls<void, CurrentSubscriptionAnswer | null>(),
    payments: deferredCalls<void, PaymentsConfig>(),
  };
  const answerLoads = options.answerLoads ?? true;
  const load = <T>(
    calls: { handler: (input: void) => Promise<T>; last: () => { settle: { resolve: (value: T) => void } } },
    answer: () => T,
  ) => {
    const call = calls.handler();
    if (answerLoads) calls.last().settle.resolve(answer());
    return call;
  };
  const creates = deferredCalls<{ priceId: string }, CreateSubscriptionResponse>();
  const confirmations = deferredCalls<{ clientSecret: string; method: PaymentMethodInput }, { status: string }>();
  const verifications = deferredCalls<{ subscriptionId: string }, void>();
  const cancels = deferredCalls<void, CancelSubscriptionResponse>();
  const resumes = deferredCalls<void, CurrentSubscription>();
  const refunds = deferredCalls<void, RefundSubscriptionResponse>();
  const invoiceLoads = deferredCalls<{ page: number }, InvoicePage>();
  const answerHistory = options.answerHistory ?? true;
  const portals = deferredCalls<void, string>();
  const cardUpdates = deferredCalls<SandboxCard, string>();
  const cardLoads = deferredCalls<void, CardOnFile | null>();
  const answerCard = options.answerCard ?? true;
  const redirectTo = vi.fn<(url: string) => void>();
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
        confirmPayment: fromPromise(({ input }: { input: { clientSecret: string; method: PaymentMethodInput } }) =>
          confirmations.handler(input),
        ),
        verifySubscription: fromPromise(({ input }: { input: { subscriptionId: string } }) => verifications.handler(input)),
      },
    }),
    subscriptionCancel: subscriptionCancelMachine.provide({
      actors: { cancelSubscription: fromPromise(() => cancels.handler()), resumeSubscription: fromPromise(() => resumes.handler()) },
    }),
    subscriptionRefund: subscriptionRefundMachine.provide({ actors: { requestRefund: fromPromise(() => refunds.handler()) } }),
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
      actions: { redirectTo: (_, url) => redirectTo(url) },
    }),
    cardOnFile: cardOnFileMachine.provide({
      actors: {
        loadCard: fromPromise(() => {
          const call = cardLoads.handler();
          if (answerCard) cardLoads.last().settle.resolve(server.card);
          return call;
        }),
      },
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
    refunds,
    invoiceLoads,
    portals,
    cardUpdates,
    cardLoads,
    redirectTo,
  };
}
export type SubscriptionsTabPage = ReturnType<typeof openSubscriptionsTab>;

export const subscriptionsTab = () => screen.getByRole('region', { name: 'Subscriptions' });

/** A path test's opener: the tab, shown, with what the test tracks besides (`extra`, e.g. call counts). */
export async function showSubscriptionsTab<Extra extends object>(options: TabOptions, extra: Extra) {
  const page = { ...openSubscriptionsTab(options), ...extra };
  // The tab's lazy chunk may take a while on a busy machine.
  await settle(subscriptionsTab);
  return page;
}
export const paymentDialog = () => screen.queryByRole('dialog', { name: 'Complete your subscription' });
export const cancelDialog = () => screen.queryByRole('alertdialog', { name: 'Cancel Subscription' });
export const refundDialog = () => screen.queryByRole('alertdialog', { name: 'Request a refund' });
export const subscribeButton = (plan: SubscriptionPlan) =>
  within(subscriptionsTab()).getByRole('button', { name: `Subscribe to ${plan.name}` }) as HTMLButtonElement;

/** The alert and the status line of the tab, exactly (none unless given). */
export const expectMessages = (expected: { alert?: string; notice?: string }) => seeMessages(subscriptionsTab, expected);

/** Waits for the API double to have been called `count` times, so the test can answer the last call. */
export function called(what: string, calls: readonly unknown[], count: number) {
  return see(`${what} (call ${count})`, () => expect(calls).toHaveLength(count));
}

/**
 * How a plan is offered: Subscribe enabled (`open`), disabled while a purchase starts (`busy`), 'Starting...'
 * (`starting`), disabled beside the server's reason (`blocked`), or no button at all (`none`).
 */
type PlanShown = { plan: SubscriptionPlan; offer: 'open' | 'busy' | 'starting' | 'blocked' | 'none'; current?: boolean };

/** Each plan's card: its button as `offer` says, 'Current plan' only on the member's plan, 'No longer available' only on a retired one. */
export function seePlans(expected: PlanShown[]) {
  const shown = (plan: SubscriptionPlan): PlanShown => {
    const card = within(within(subscriptionsTab()).getByRole('heading', { name: plan.name }).closest('li')!);
    const button = card.queryByRole('button', { name: `Subscribe to ${plan.name}` }) as HTMLButtonElement | null;
    expect(card.queryByText('No longer available') !== null).toBe(!plan.is_active);
    const reasonId = button?.getAttribute('aria-describedby');
    const reason = reasonId ? document.getElementById(reasonId)?.textContent : undefined;
    const offer = !button
      ? 'none'
      : button.textContent === 'Starting...'
        ? 'starting'
        : !button.disabled
          ? 'open'
          : reason === 'You already have an active subscription.'
            ? 'blocked'
            : 'busy';
    if (button?.textContent !== 'Starting...') expect(button?.textContent ?? 'Subscribe').toBe('Subscribe');
    return { plan, offer, current: card.queryByText('Current plan') !== null };
  };
  return see(expected.map(({ plan, offer, current }) => `${plan.name}: ${offer}${current ? ', Current plan' : ''}`).join('; '), () =>
    expect(expected.map(({ plan }) => shown(plan))).toEqual(expected.map((entry) => ({ current: false, ...entry }))),
  );
}
