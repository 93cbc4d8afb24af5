import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, type AnyEventObject, type InspectionEvent } from 'xstate';
import {
  cancelSubscription,
  createSubscription,
  getCurrentSubscription,
  getPaymentsConfig,
  getSubscriptionPlans,
  verifySubscription,
} from '../../../src/api/subscriptions';
import { getInvoices, openBillingPortal, resumeSubscription } from '../../../src/api/billing';
import { subscriptionFlows, subscriptionsTabMachine } from '../../../machines/subscriptionsTab.machine';
import { activeSubscription, monthlyPlan, sandboxPayments } from '../../support/subscriptionFixtures';
import { nextTick } from './machineTestKit';

vi.mock('../../../src/api/subscriptions', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../src/api/subscriptions')>()),
  getSubscriptionPlans: vi.fn(),
  getCurrentSubscription: vi.fn(),
  getPaymentsConfig: vi.fn(),
  createSubscription: vi.fn(),
  verifySubscription: vi.fn(),
  cancelSubscription: vi.fn(),
}));

vi.mock('../../../src/api/billing', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../src/api/billing')>()),
  getInvoices: vi.fn(),
  resumeSubscription: vi.fn(),
  openBillingPortal: vi.fn(),
}));

beforeEach(() => {
  vi.mocked(getInvoices).mockReset().mockResolvedValue({ invoices: [], hasMore: false });
  vi.mocked(resumeSubscription).mockReset().mockResolvedValue(activeSubscription);
  vi.mocked(openBillingPortal).mockReset().mockReturnValue(new Promise(() => {}));
  vi.mocked(getSubscriptionPlans).mockReset().mockResolvedValue([monthlyPlan]);
  vi.mocked(getCurrentSubscription).mockReset().mockResolvedValue(null);
  vi.mocked(getPaymentsConfig).mockReset().mockResolvedValue(sandboxPayments);
  vi.mocked(createSubscription).mockReset().mockResolvedValue({ clientSecret: null, subscriptionId: 'sub_2' });
  vi.mocked(verifySubscription).mockReset().mockResolvedValue();
  vi.mocked(cancelSubscription).mockReset().mockResolvedValue({ cancelAt: '2026-12-01T12:00:00.000Z' });
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
  const tab = createActor(subscriptionsTabMachine.provide({ actions: { reloadProfile } }), { inspect }).start();
  const flows = subscriptionFlows(tab.getSnapshot());
  purchase = flows.purchase;
  return { tab, flows, reloadProfile, purchaseReceived };
}

describe('subscriptionsTab (SPEC §2 Subscriptions tab, §4 Subscription purchase and Cancellation, §6)', () => {
  it('starts the overview, purchase, cancel, billing history and manage-billing flows together and keeps them while it lives', async () => {
    const { tab, flows } = start();
    expect(Object.keys(tab.getSnapshot().children).sort()).toEqual(['billingHistory', 'cancel', 'manageBilling', 'overview', 'purchase']);
    expect(flows.billingHistory.getSnapshot().hasTag('busy')).toBe(true);
    expect(flows.manageBilling.getSnapshot().value).toBe('idle');
    expect(flows.overview.getSnapshot().hasTag('loading')).toBe(true);
    expect(flows.purchase.getSnapshot().value).toBe('idle');
    expect(flows.cancel.getSnapshot().value).toBe('idle');
    await nextTick();
    expect(subscriptionFlows(tab.getSnapshot())).toEqual(flows);
  });

  it('refuses to read flows from a snapshot missing any of them', () => {
    const snapshot = start().tab.getSnapshot();
    const all = snapshot.children;
    const without = (name: keyof typeof all) => Object.fromEntries(Object.entries(all).filter(([key]) => key !== name));
    for (const children of [without('overview'), without('purchase'), without('cancel'), without('billingHistory'), without('manageBilling'), {}]) {
      expect(() => subscriptionFlows({ ...snapshot, children })).toThrow('The Subscriptions tab has not started its flows');
    }
  });

  it("forwards a chosen plan to the purchase with the overview's current subscription, so a second one is refused", async () => {
    vi.mocked(getCurrentSubscription).mockResolvedValue(activeSubscription);
    const { tab, flows, purchaseReceived } = start();
    await nextTick();
    tab.send({ type: 'plan.chosen', plan: monthlyPlan });
    expect(purchaseReceived).toEqual([{ type: 'plan.chosen', plan: monthlyPlan, current: activeSubscription }]);
    expect(flows.purchase.getSnapshot().context.error).toBe('You already have an active subscription.');
    expect(createSubscription).not.toHaveBeenCalled();
  });

  it('forwards a chosen plan with no current subscription as null, and the purchase goes ahead', async () => {
    const { tab, flows, purchaseReceived } = start();
    await nextTick();
    tab.send({ type: 'plan.chosen', plan: monthlyPlan });
    expect(purchaseReceived).toEqual([{ type: 'plan.chosen', plan: monthlyPlan, current: null }]);
    expect(flows.purchase.getSnapshot().matches('creating')).toBe(true);
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
    vi.mocked(getPaymentsConfig).mockResolvedValue({ mode: 'stripe', publishableKey: 'pk_test_1' });
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
    vi.mocked(getCurrentSubscription).mockResolvedValue(activeSubscription);

    tab.send({ type: 'plan.chosen', plan: monthlyPlan });
    expect(reloadProfile).not.toHaveBeenCalled();
    await nextTick();
    await nextTick();
    expect(flows.purchase.getSnapshot().hasTag('success')).toBe(true);
    expect(reloadProfile).toHaveBeenCalledTimes(1);
    expect(getCurrentSubscription).toHaveBeenCalledTimes(2);
    // The new invoice shows in the billing history.
    expect(getInvoices).toHaveBeenCalledTimes(2);
    await nextTick();
    expect(flows.overview.getSnapshot().context.current).toEqual(activeSubscription);
  });

  it('reloads the current subscription and the profile once a cancellation succeeded', async () => {
    vi.mocked(getCurrentSubscription).mockResolvedValue(activeSubscription);
    const { flows, reloadProfile } = start();
    await nextTick();
    const cancelling = { ...activeSubscription, cancel_at_period_end: true };
    vi.mocked(getCurrentSubscription).mockResolvedValue(cancelling);

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
    vi.mocked(getCurrentSubscription).mockResolvedValue({ ...activeSubscription, cancel_at_period_end: true });
    const { flows, reloadProfile } = start();
    await nextTick();
    expect(getInvoices).toHaveBeenCalledTimes(1);
    vi.mocked(getCurrentSubscription).mockResolvedValue(activeSubscription);

    flows.cancel.send({ type: 'resume.requested' });
    await nextTick();
    expect(flows.cancel.getSnapshot().matches('resumed')).toBe(true);
    expect(reloadProfile).toHaveBeenCalledTimes(1);
    expect(getCurrentSubscription).toHaveBeenCalledTimes(2);
    expect(getInvoices).toHaveBeenCalledTimes(2);
    expect(vi.mocked(getInvoices).mock.calls[1][0]).toBe(1);
    await nextTick();
    expect(flows.overview.getSnapshot().context.current).toEqual(activeSubscription);
  });
});
