import { useSelector } from '@xstate/react';
import { billingHistoryMachine } from '../../../machines/billingHistory.machine';
import { manageBillingMachine } from '../../../machines/manageBilling.machine';
import { cardOnFileMachine } from '../../../machines/cardOnFile.machine';
import { cancelledMessage, subscriptionCancelMachine } from '../../../machines/subscriptionCancel.machine';
import { refundedMessage, subscriptionRefundMachine } from '../../../machines/subscriptionRefund.machine';
import { planOffers, subscriptionOverviewMachine } from '../../../machines/subscriptionOverview.machine';
import { SUBSCRIPTION_SUCCESS_MESSAGE, subscriptionPurchaseMachine } from '../../../machines/subscriptionPurchase.machine';
import { subscriptionFlows, subscriptionsTabMachine } from '../../../machines/subscriptionsTab.machine';
import { billingMessages } from '../../../server/src/contract/billing';
import { useFlows } from '../../hooks/appContext';
import { useFlowActor } from '../../hooks/useFlowActor';
import { useReloadProfile } from '../../hooks/useReloadProfile';
import { useRedirectAction } from '../../hooks/redirect';
import { FormMessages } from '../../components/form/FormMessages';
import { BillingSection } from './BillingSection';
import { CurrentSubscriptionCard } from './CurrentSubscriptionCard';
import { formatAmount } from '../../../server/src/contract/billing';
import { Modal } from '../../components/Modal';
import { SandboxCardForm } from './SandboxCardForm';
import { StripeCardForm } from './StripeCardForm';

type TabFlows = ReturnType<typeof subscriptionFlows>;
const sameFlows = (a: TabFlows, b: TabFlows) => (Object.keys(a) as (keyof TabFlows)[]).every((name) => a[name] === b[name]);

export function SubscriptionsTab() {
  const flows = useFlows();
  const reloadProfile = useReloadProfile();
  // "Manage billing" leaves the app for Stripe's Customer Portal.
  const redirectTo = useRedirectAction();
  const tab = useFlowActor(
    subscriptionsTabMachine.provide({
      actors: {
        overview: flows.subscriptionOverview ?? subscriptionOverviewMachine,
        purchase: flows.subscriptionPurchase ?? subscriptionPurchaseMachine,
        cancel: flows.subscriptionCancel ?? subscriptionCancelMachine,
        refund: flows.subscriptionRefund ?? subscriptionRefundMachine,
        billingHistory: flows.billingHistory ?? billingHistoryMachine,
        manageBilling: flows.manageBilling ?? manageBillingMachine.provide({ actions: { redirectTo } }),
        cardOnFile: flows.cardOnFile ?? cardOnFileMachine,
      },
      actions: { reloadProfile },
    }),
  );
  const { overview, purchase, cancel, refund, billingHistory, manageBilling, cardOnFile } = useSelector(tab, subscriptionFlows, sameFlows);

  const { offers, blockedBy } = useSelector(overview, planOffers);
  const current = useSelector(overview, (snapshot) => snapshot.context.current);
  const payments = useSelector(overview, (snapshot) => snapshot.context.payments);
  const loadErrors = useSelector(overview, (snapshot) =>
    [snapshot.context.plansError, snapshot.context.currentError, snapshot.context.paymentsError].filter((error) => error !== null),
  );
  const loading = useSelector(overview, (snapshot) => snapshot.hasTag('loading'));

  const purchaseError = useSelector(purchase, (snapshot) => snapshot.context.error);
  const purchased = useSelector(purchase, (snapshot) => snapshot.hasTag('success'));
  const choosing = useSelector(purchase, (snapshot) => snapshot.matches('creating'));
  const paymentOpen = useSelector(purchase, (snapshot) => snapshot.hasTag('dialog'));
  const paying = useSelector(purchase, (snapshot) => snapshot.hasTag('dialog') && snapshot.hasTag('busy'));
  const chosenPlan = useSelector(purchase, (snapshot) => snapshot.context.plan);

  const cancelError = useSelector(cancel, (snapshot) => snapshot.context.error);
  const cancelNotice = useSelector(cancel, (snapshot) => {
    if (snapshot.matches('cancelled')) return cancelledMessage(snapshot.context.cancelAt);
    return snapshot.matches('resumed') ? billingMessages.resumed : null;
  });

  const refundError = useSelector(refund, (snapshot) => snapshot.context.error);
  const refundNotice = useSelector(refund, (snapshot) =>
    snapshot.matches('refunded') && snapshot.context.refund ? refundedMessage(snapshot.context.refund) : null,
  );

  const dismissPayment = () => purchase.send({ type: 'payment.dismissed' });

  return (
    <section className="profile-card" aria-label="Subscriptions">
      <h2>Subscriptions</h2>
      {loadErrors.length > 0 && (
        <div className="alert alert--error" role="alert">
          {loadErrors.map((error) => (
            <p key={error}>{error}</p>
          ))}
          <button type="button" className="button" onClick={() => overview.send({ type: 'overview.retried' })}>
            Retry
          </button>
        </div>
      )}
      <FormMessages
        error={purchaseError ?? cancelError ?? refundError}
        notice={purchased ? SUBSCRIPTION_SUCCESS_MESSAGE : (cancelNotice ?? refundNotice)}
      />

      <h3>Your subscription</h3>
      <CurrentSubscriptionCard current={current} loading={loading && !current} cancel={cancel} refund={refund} />

      <h3>Plans</h3>
      {offers.length === 0 && loading ? <p>Loading plans…</p> : null}
      {/* The server's own refusal, beside the plans it would refuse. */}
      {blockedBy && (
        <p id="plans-blocked" className="muted">
          {blockedBy}
        </p>
      )}
      <ul className="plans">
        {offers.map(({ plan, isCurrent, offer }) => (
          <li key={plan.id} className={plan.is_active ? 'plan' : 'plan plan--inactive'}>
            <h4>{plan.name}</h4>
            {isCurrent && <p className="plan__current">Current plan</p>}
            <p className="plan__price">
              {formatAmount(plan.amount)} <span>/ {plan.duration}</span>
            </p>
            {!plan.is_active && <p className="muted">No longer available</p>}
            {offer !== 'none' && (
              <button
                type="button"
                className="button button--primary"
                disabled={offer === 'blocked' || choosing || paymentOpen}
                aria-label={`Subscribe to ${plan.name}`}
                aria-describedby={blockedBy ? 'plans-blocked' : undefined}
                onClick={() => tab.send({ type: 'plan.chosen', plan })}
              >
                {choosing && chosenPlan?.id === plan.id ? 'Starting...' : 'Subscribe'}
              </button>
            )}
          </li>
        ))}
      </ul>

      {/* Manage billing needs the payment mode, and a subscription whose card there is to manage. */}
      <BillingSection
        history={billingHistory}
        manage={manageBilling}
        card={cardOnFile}
        canManage={Boolean(current && payments)}
        onManage={() => tab.send({ type: 'billing.requested' })}
      />

      {paymentOpen && chosenPlan && (
        <Modal title="Complete your subscription" busy={paying} onClose={dismissPayment}>
          <p>
            {chosenPlan.name}: <strong>{formatAmount(chosenPlan.amount)}</strong> per {chosenPlan.duration}, renewing until you cancel.
          </p>
          {payments?.mode === 'stripe' && payments.publishableKey ? (
            <StripeCardForm
              publishableKey={payments.publishableKey}
              busy={paying}
              onPay={(method) => purchase.send({ type: 'payment.submitted', method })}
              onCancel={dismissPayment}
            />
          ) : (
            <SandboxCardForm
              busy={paying}
              onPay={(card) => purchase.send({ type: 'payment.submitted', method: { kind: 'sandbox', card } })}
              onCancel={dismissPayment}
            />
          )}
        </Modal>
      )}
    </section>
  );
}
