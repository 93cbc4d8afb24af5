import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type AnyEventObject, type InspectionEvent } from 'xstate';
import type { InvoicePage } from '../../../machines/services/billing';
import type { PaymentMethodInput } from '../../../machines/services/confirmPayment';
import { billingHistoryMachine } from '../../../machines/billingHistory.machine';
import { cardOnFileMachine } from '../../../machines/cardOnFile.machine';
import { manageBillingMachine } from '../../../machines/manageBilling.machine';
import { subscriptionCancelMachine } from '../../../machines/subscriptionCancel.machine';
import { subscriptionRefundMachine } from '../../../machines/subscriptionRefund.machine';
import { subscriptionOverviewMachine } from '../../../machines/subscriptionOverview.machine';
import { subscriptionPurchaseMachine } from '../../../machines/subscriptionPurchase.machine';
import { subscriptionFlows, subscriptionsTabMachine } from '../../../machines/subscriptionsTab.machine';
import type { CardOnFile } from '../../../server/src/contract/billing';
import type {
  CancelSubscriptionResponse,
  CreateSubscriptionResponse,
  CurrentSubscription,
  CurrentSubscriptionAnswer,
  PaymentsConfig,
  RefundSubscriptionResponse,
  SubscriptionPlan,
} from '../../../server/src/contract/subscriptions';
import type { SandboxCard } from '../../../server/src/contract/sandboxCard';
import { activeSubscription, monthlyPlan, sandboxPayments } from '../../support/subscriptionFixtures';
import { nextTick } from './machineTestKit';

type CallOptions = { signal: AbortSignal };

/** API doubles, shaped like the service calls the flows' actors make; each test sets what they answer. */
const getSubscriptionPlans = vi.fn<(options: CallOptions) => Promise<SubscriptionPlan[]>>();
const getCurrentSubscription = vi.fn<(options: CallOptions) => Promise<CurrentSubscriptionAnswer | null>>();
const getPaymentsConfig = vi.fn<(options: CallOptions) => Promise<PaymentsConfig>>();
const createSubscription = vi.fn<(priceId: string, options: CallOptions) => Promise<CreateSubscriptionResponse>>();
const confirmCardPayment = vi.fn<(clientSecret: string, method: PaymentMethodInput) => Promise<{ status: string }>>();
const verifySubscription = vi.fn<(subscriptionId: string, options: CallOptions) => Promise<void>>();
const cancelSubscription = vi.fn<(options: CallOptions) => Promise<CancelSubscriptionResponse>>();
const resumeSubscription = vi.fn<(options: CallOptions) => Promise<CurrentSubscription>>();
const getInvoices = vi.fn<(page: number, options: CallOptions) => Promise<InvoicePage>>();
const getCardOnFile = vi.fn<(options: CallOptions) => Promise<CardOnFile | null>>();
const openBillingPortal = vi.fn<(options: CallOptions) => Promise<string>>();
const updateSandboxCard = vi.fn<(card: SandboxCard, options: CallOptions) => Promise<string>>();
const requestRefund = vi.fn<(options: CallOptions) => Promise<RefundSubscriptionResponse>>();

/** The tab invokes its flows by these names; each is the real flow with its API actors replaced. */
const flowsWithDoubles = {
  overview: subscriptionOverviewMachine.provide({
    actors: {
      loadPlans: fromPromise<SubscriptionPlan[]>(({ signal }) => getSubscriptionPlans({ signal })),
      loadCurrent: fromPromise<CurrentSubscriptionAnswer | null>(({ signal }) => getCurrentSubscription({ signal })),
      loadPayments: fromPromise<PaymentsConfig>(({ signal }) => getPaymentsConfig({ signal })),
    },
  }),
  purchase: subscriptionPurchaseMachine.provide({
    actors: {
      createSubscription: fromPromise<CreateSubscriptionResponse, { priceId: string }>(({ input, signal }) =>
        createSubscription(input.priceId, { signal }),
      ),
      confirmPayment: fromPromise<{ status: string }, { clientSecret: string; method: PaymentMethodInput }>(({ input }) =>
        confirmCardPayment(input.clientSecret, input.method),
      ),
      verifySubscription: fromPromise<void, { subscriptionId: string }>(({ input, signal }) =>
        verifySubscription(input.subscriptionId, { signal }),
      ),
    },
  }),
  cancel: subscriptionCancelMachine.provide({
    actors: {
      cancelSubscription: fromPromise<CancelSubscriptionResponse>(({ signal }) => cancelSubscription({ signal })),
      resumeSubscription: fromPromise<CurrentSubscription>(({ signal }) => resumeSubscription({ signal })),
    },
  }),
  refund: subscriptionRefundMachine.provide({
    actors: { requestRefund: fromPromise<RefundSubscriptionResponse>(({ signal }) => requestRefund({ signal })) },
  }),
  billingHistory: billingHistoryMachine.provide({
    actors: {
      loadInvoices: fromPromise<InvoicePage, { page: number }>(({ input, signal }) => getInvoices(input.page, { signal })),
    },
  }),
  manageBilling: manageBillingMachine.provide({
    actors: {
      openPortal: fromPromise<string>(({ signal }) => openBillingPortal({ signal })),
      updateCard: fromPromise<string, SandboxCard>(({ input, signal }) => updateSandboxCard(input, { signal })),
    },
  }),
  cardOnFile: cardOnFileMachine.provide({
    actors: { loadCard: fromPromise<CardOnFile | null>(({ signal }) => getCardOnFile({ signal })) },
  }),
};

beforeEach(() => {
  getInvoices.mockReset().mockResolvedValue({ invoices: [], hasMore: false });
  getCardOnFile.mockReset().mockResolvedValue(null);
  updateSandboxCard.mockReset().mockResolvedValue('4444');
  resumeSubscription.mockReset().mockResolvedValue(activeSubscription);
  openBillingPortal.mockReset().mockReturnValue(new Promise(() => {}));
  getSubscriptionPlans.mockReset().mockResolvedValue([monthlyPlan]);
  getCurrentSubscription.mockReset().mockResolvedValue(null);
  getPaymentsConfig.mockReset().mockResolvedValue(sandboxPayments);
  createSubscription.mockReset().mockResolvedValue({ clientSecret: null, subscriptionId: 'sub_2' });
  confirmCardPayment.mockReset().mockResolvedValue({ status: 'succeeded' });
  verifySubscription.mockReset().mockResolvedValue();
  cancelSubscription.mockReset().mockResolvedValue({ cancelAt: '2026-12-01T12:00:00.000Z' });
  requestRefund.mockReset().mockResolvedValue({ invoiceId: 'in_1', amount: 999, currency: 'usd' });
});

/** The tab with its real flows; `purchaseReceived` records what the tab hands the purchase flow. */
function start() {
  const reloadProfile = vi.fn();
  const purchaseReceived: AnyEventObject[] = [];
  let purchase: unknown;
  const inspect = (inspection: InspectionEvent) => {
    if (inspection.type === '@xstate.event' && inspection.actorRef === purchase && inspection.event.type === 'plan.chosen') {
      purchaseReceived.push(inspection.event);
    }
  };
  const tab = createActor(subscriptionsTabMachine.provide({ actors: flowsWithDoubles, actions: { reloadProfile } }), { inspect }).start();
  const flows = subscriptionFlows(tab.getSnapshot());
  purchase = flows.purchase;
  return { tab, flows, reloadProfile, purchaseReceived };
}

describe('subscriptionsTab (SPEC §2 Subscriptions tab, §4 Subscription purchase and Cancellation, §6)', () => {
  it('starts the overview, purchase, cancel, refund, billing history, manage-billing and card-on-file flows together and keeps them while it lives', async () => {
    const { tab, flows } = start();
    expect(Object.keys(tab.getSnapshot().children).sort()).toEqual([
      'billingHistory',
      'cancel',
      'cardOnFile',
      'manageBilling',
      'overview',
      'purchase',
      'refund',
    ]);
    expect(flows.billingHistory.getSnapshot().hasTag('busy')).toBe(true);
    expect(flows.cardOnFile.getSnapshot().hasTag('busy')).toBe(true);
    expect(flows.manageBilling.getSnapshot().value).toBe('idle');
    expect(flows.overview.getSnapshot().hasTag('loading')).toBe(true);
    expect(flows.purchase.getSnapshot().value).toBe('idle');
    expect(flows.cancel.getSnapshot().value).toBe('idle');
    expect(flows.refund.getSnapshot().value).toBe('idle');
    await nextTick();
    expect(subscriptionFlows(tab.getSnapshot())).toEqual(flows);
  });

  it('invokes the real flows under the names the doubles above replace', () => {
    // The tests provide every flow, so only here is the tab's own choice of flows seen.
    const { actors } = subscriptionsTabMachine.implementations;
    expect(Object.keys(actors).sort()).toEqual(Object.keys(flowsWithDoubles).sort());
    expect(actors.overview).toBe(subscriptionOverviewMachine);
    expect(actors.purchase).toBe(subscriptionPurchaseMachine);
    expect(actors.cancel).toBe(subscriptionCancelMachine);
    expect(actors.refund).toBe(subscriptionRefundMachine);
    expect(actors.billingHistory).toBe(billingHistoryMachine);
    expect(actors.manageBilling).toBe(manageBillingMachine);
    expect(actors.cardOnFile).toBe(cardOnFileMachine);
  });

  it('refuses to read flows from a snapshot missing any of them', () => {
    const snapshot = start().tab.getSnapshot();
    const all = snapshot.children;
    const without = (name: keyof typeof all) => Object.fromEntries(Object.entries(all).filter(([key]) => key !== name));
    const flows = ['overview', 'purchase', 'cancel', 'refund', 'billingHistory', 'manageBilling', 'cardOnFile'] as const;
    for (const children of [...flows.map(without), {}]) {
      expect(() => subscriptionFlows({ ...snapshot, children })).toThrow('The Subscriptions tab has not started its flows');
    }
  });

  it('forwards a chosen plan to the purchase, which asks the server (the plan list offers only what it would sell)', async () => {
    const { tab, flows, purchaseReceived } = start();
    await nextTick();
    tab.send({ type: 'plan.chosen', plan: monthlyPlan });
    expect(purchaseReceived).toEqual([{ type: 'plan.chosen', plan: monthlyPlan }]);
    expect(flows.purchase.getSnapshot().matches('creating')).toBe(true);
  });

  it("keeps one outcome on screen: cancelling during 'Subscription successful!' replaces it with the cancel message", async () => {
    const { tab, flows } = start();
    await nextTick();
    getCurrentSubscription.mockResolvedValue(activeSubscription);
    tab.send({ type: 'plan.chosen', plan: monthlyPlan });
    await nextTick();
    await nextTick();
    expect(flows.purchase.getSnapshot().hasTag('success')).toBe(true);

    flows.cancel.send({ type: 'cancel.requested' });
    // Only opening the confirmation: the purchase's message stays.
    expect(flows.purchase.getSnapshot().hasTag('success')).toBe(true);
    flows.cancel.send({ type: 'cancel.confirmed' });
    expect(flows.purchase.getSnapshot().hasTag('success')).toBe(false);
    await nextTick();
    expect(flows.cancel.getSnapshot().hasTag('success')).toBe(true);
  });

  it('keeps one outcome on screen: a purchase started during the cancel message replaces it', async () => {
    getCurrentSubscription.mockResolvedValue({ ...activeSubscription, cancel_at_period_end: false });
    const { tab, flows } = start();
    await nextTick();
    flows.cancel.send({ type: 'cancel.requested' });
    flows.cancel.send({ type: 'cancel.confirmed' });
    await nextTick();
    expect(flows.cancel.getSnapshot().hasTag('success')).toBe(true);

    tab.send({ type: 'plan.chosen', plan: monthlyPlan });
    expect(flows.cancel.getSnapshot().hasTag('success')).toBe(false);
    expect(flows.cancel.getSnapshot().matches('idle')).toBe(true);
  });

  it('keeps one outcome on screen: a refund replaces the purchase and cancel messages, and a purchase or cancel replaces its own', async () => {
    getCurrentSubscription.mockResolvedValue(activeSubscription);
    const { tab, flows, reloadProfile } = start();
    await nextTick();
    flows.cancel.send({ type: 'cancel.requested' });
    flows.cancel.send({ type: 'cancel.confirmed' });
    await nextTick();
    tab.send({ type: 'plan.chosen', plan: monthlyPlan });
    await nextTick();
    await nextTick();
    expect(flows.purchase.getSnapshot().hasTag('success')).toBe(true);
    const reloads = reloadProfile.mock.calls.length;

    flows.refund.send({ type: 'refund.requested' });
    flows.refund.send({ type: 'refund.confirmed' });
    expect(flows.purchase.getSnapshot().hasTag('success')).toBe(false);
    await nextTick();
    expect(flows.refund.getSnapshot().hasTag('success')).toBe(true);
    // The refund reloads the subscription and the profile.
    expect(reloadProfile.mock.calls.length).toBe(reloads + 1);

    // A cancel starting clears the refund's message; so does a purchase.
    flows.cancel.send({ type: 'cancel.requested' });
    flows.cancel.send({ type: 'cancel.confirmed' });
    expect(flows.refund.getSnapshot().matches('idle')).toBe(true);
    await nextTick();
    flows.refund.send({ type: 'refund.requested' });
    flows.refund.send({ type: 'refund.confirmed' });
    expect(flows.cancel.getSnapshot().hasTag('success')).toBe(false);
    await nextTick();
    expect(flows.refund.getSnapshot().hasTag('success')).toBe(true);
    tab.send({ type: 'plan.chosen', plan: monthlyPlan });
    expect(flows.refund.getSnapshot().matches('idle')).toBe(true);
  });

  it("forwards 'Manage billing' with the payment mode the overview loaded, and not before it has loaded", async () => {
    const { tab, flows } = start();
    tab.send({ type: 'billing.requested' });
    expect(flows.manageBilling.getSnapshot().value).toBe('idle');
    await nextTick();
    tab.send({ type: 'billing.requested' });
    // Sandbox mode: the card dialog, not Stripe's portal.
    expect(flows.manageBilling.getSnapshot().hasTag('dialog')).toBe(true);
  });

  it("forwards 'Manage billing' in Stripe mode to the portal", async () => {
    getPaymentsConfig.mockResolvedValue({ mode: 'stripe', publishableKey: 'pk_test_1' });
    const { tab, flows } = start();
    await nextTick();
    tab.send({ type: 'billing.requested' });
    expect(flows.manageBilling.getSnapshot().hasTag('dialog')).toBe(false);
    expect(flows.manageBilling.getSnapshot().hasTag('busy')).toBe(true);
    expect(openBillingPortal).toHaveBeenCalledTimes(1);
  });

  it('reloads the current subscription and the profile once a purchase is verified', async () => {
    const { tab, flows, reloadProfile } = start();
    await nextTick();
    expect(getCurrentSubscription).toHaveBeenCalledTimes(1);
    getCurrentSubscription.mockResolvedValue(activeSubscription);

    tab.send({ type: 'plan.chosen', plan: monthlyPlan });
    expect(reloadProfile).not.toHaveBeenCalled();
    await nextTick();
    await nextTick();
    expect(flows.purchase.getSnapshot().hasTag('success')).toBe(true);
    expect(reloadProfile).toHaveBeenCalledTimes(1);
    expect(getCurrentSubscription).toHaveBeenCalledTimes(2);
    // The new invoice shows in the billing history, and the paying card as the card on file.
    expect(getInvoices).toHaveBeenCalledTimes(2);
    expect(getCardOnFile).toHaveBeenCalledTimes(2);
    await nextTick();
    expect(flows.overview.getSnapshot().context.current).toEqual(activeSubscription);
  });

  it('reloads the current subscription and the profile once a cancellation succeeded', async () => {
    getCurrentSubscription.mockResolvedValue(activeSubscription);
    const { flows, reloadProfile } = start();
    await nextTick();
    const cancelling = { ...activeSubscription, cancel_at_period_end: true };
    getCurrentSubscription.mockResolvedValue(cancelling);

    flows.cancel.send({ type: 'cancel.requested' });
    flows.cancel.send({ type: 'cancel.confirmed' });
    expect(reloadProfile).not.toHaveBeenCalled();
    await nextTick();
    expect(flows.cancel.getSnapshot().hasTag('success')).toBe(true);
    expect(reloadProfile).toHaveBeenCalledTimes(1);
    expect(getCurrentSubscription).toHaveBeenCalledTimes(2);
    await nextTick();
    expect(flows.overview.getSnapshot().context.current).toEqual(cancelling);
  });

  it('reloads the subscription, the profile and the billing history from its first page once a resume succeeded', async () => {
    getCurrentSubscription.mockResolvedValue({ ...activeSubscription, cancel_at_period_end: true });
    const { flows, reloadProfile } = start();
    await nextTick();
    expect(getInvoices).toHaveBeenCalledTimes(1);
    getCurrentSubscription.mockResolvedValue(activeSubscription);

    flows.cancel.send({ type: 'resume.requested' });
    await nextTick();
    expect(flows.cancel.getSnapshot().matches('resumed')).toBe(true);
    expect(reloadProfile).toHaveBeenCalledTimes(1);
    expect(getCurrentSubscription).toHaveBeenCalledTimes(2);
    expect(getInvoices).toHaveBeenCalledTimes(2);
    expect(getInvoices.mock.calls[1][0]).toBe(1);
    await nextTick();
    expect(flows.overview.getSnapshot().context.current).toEqual(activeSubscription);
  });

  it('shows the card on file anew once a card update succeeded, and only then', async () => {
    const { tab, flows } = start();
    await nextTick();
    expect(getCardOnFile).toHaveBeenCalledTimes(1);
    tab.send({ type: 'billing.requested' });
    flows.manageBilling.send({ type: 'card.submitted', card: { cardNumber: '5555 5555 5555 4444', expiry: '03/31', cvc: '123' } });
    expect(getCardOnFile).toHaveBeenCalledTimes(1);
    await nextTick();
    expect(flows.manageBilling.getSnapshot().hasTag('success')).toBe(true);
    expect(getCardOnFile).toHaveBeenCalledTimes(2);
    // Nothing else reloads for a card.
    expect(getInvoices).toHaveBeenCalledTimes(1);
    expect(getCurrentSubscription).toHaveBeenCalledTimes(1);
  });
});
