import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { subscriptionCancelMachine } from '../../../machines/subscriptionCancel.machine';
import type { subscriptionRefundMachine } from '../../../machines/subscriptionRefund.machine';
import { MONEY_BACK_DAYS, type CurrentSubscriptionAnswer } from '../../../server/src/contract/subscriptions';
import { formatDate, formatDateTime } from '../../../machines/rules/dates';
import { formatAmount } from '../../../server/src/contract/billing';
import { Modal } from '../../components/Modal';
import { ActionButtons } from '../../components/form/ActionButtons';

export const PLAN_REMOVED = 'A plan no longer offered';

/** Attempts whose first payment never succeeded: nothing to show or cancel. */
const UNPAID_STATUSES = ['incomplete', 'incomplete_expired'];

type CurrentSubscriptionCardProps = {
  current: CurrentSubscriptionAnswer | null;
  loading: boolean;
  cancel: ActorRefFrom<typeof subscriptionCancelMachine>;
  refund: ActorRefFrom<typeof subscriptionRefundMachine>;
};

export function CurrentSubscriptionCard({ current, loading, cancel, refund }: CurrentSubscriptionCardProps) {
  const confirming = useSelector(cancel, (snapshot) => snapshot.hasTag('dialog'));
  const cancelling = useSelector(cancel, (snapshot) => snapshot.hasTag('busy'));
  const resuming = useSelector(cancel, (snapshot) => snapshot.matches('resuming'));

  if (!current) return <p>{loading ? 'Loading your subscription…' : 'You have no subscription yet.'}</p>;
  if (UNPAID_STATUSES.includes(current.status)) {
    return <p>Your last payment did not go through, so no subscription is active. Choose a plan to try again.</p>;
  }

  const active = current.status === 'active';
  return (
    <div className="subscription-card">
      <p className="subscription-card__plan">
        {current.plan ? (
          <>
            <strong>{current.plan.productName}</strong> · {formatAmount(current.plan.amount)} / {current.plan.interval}
          </>
        ) : (
          // The plan was removed from sale and deleted; the subscription itself goes on.
          <strong>{PLAN_REMOVED}</strong>
        )}
      </p>
      <p>
        Status: <span className={active ? 'status status--active' : 'status status--inactive'}>{current.status}</span>
      </p>
      {current.startDate && <p>Started {formatDate(current.startDate)}</p>}
      {current.cancel_at_period_end ? (
        <>
          <p className="subscription-card__ending">
            {current.currentPeriodEnd
              ? `Cancelling on ${formatDate(current.currentPeriodEnd)}`
              : 'Cancelling at the end of the billing period'}
          </p>
          {/* An ended subscription has nothing left to resume. */}
          {current.status !== 'canceled' && (
            <button
              type="button"
              className="button button--primary"
              disabled={resuming}
              onClick={() => cancel.send({ type: 'resume.requested' })}
            >
              {resuming ? 'Resuming...' : 'Resume subscription'}
            </button>
          )}
        </>
      ) : (
        <>
          {current.currentPeriodEnd && <p>Renews on {formatDate(current.currentPeriodEnd)}</p>}
          <button type="button" className="button button--danger" onClick={() => cancel.send({ type: 'cancel.requested' })}>
            Unsubscribe
          </button>
        </>
      )}
      {current.refundableUntil && current.refundableAmount !== null && (
        <RefundOffer until={current.refundableUntil} amount={current.refundableAmount} refund={refund} />
      )}
      {confirming && (
        <Modal
          title="Cancel Subscription"
          role="alertdialog"
          busy={cancelling}
          onClose={() => cancel.send({ type: 'cancel.dismissed' })}
          description={`Are you sure? Your access continues until the end of your billing period${current.currentPeriodEnd ? `, on ${formatDate(current.currentPeriodEnd)}` : ''}.`}
        >
          <ActionButtons
            className="modal__actions"
            danger
            busy={cancelling}
            label="Yes, Cancel"
            busyLabel="Cancelling..."
            onConfirm={() => cancel.send({ type: 'cancel.confirmed' })}
            onCancel={() => cancel.send({ type: 'cancel.dismissed' })}
            cancelLabel="No, Keep Subscription"
          />
        </Modal>
      )}
    </div>
  );
}

type RefundOfferProps = { until: string; amount: number; refund: ActorRefFrom<typeof subscriptionRefundMachine> };

/** The 30-day money-back guarantee (issue 30 item 3): offered while it runs, confirmed with its amount and its effect. */
function RefundOffer({ until, amount, refund }: RefundOfferProps) {
  const confirming = useSelector(refund, (snapshot) => snapshot.hasTag('dialog'));
  const refunding = useSelector(refund, (snapshot) => snapshot.hasTag('busy'));
  const dismiss = () => refund.send({ type: 'refund.dismissed' });
  return (
    <div className="subscription-card__guarantee">
      <p>
        {`${MONEY_BACK_DAYS}-day money-back guarantee: you can get your first payment of ${formatAmount(amount)} back until ${formatDateTime(until)}.`}
      </p>
      <button type="button" className="button" onClick={() => refund.send({ type: 'refund.requested' })}>
        Request a refund
      </button>
      {confirming && (
        <Modal
          title="Request a refund"
          role="alertdialog"
          busy={refunding}
          onClose={dismiss}
          description={`We will refund your first payment of ${formatAmount(amount)} in full to the card you paid with. Your subscription ends now, and its paid features stop straight away.`}
        >
          <ActionButtons
            className="modal__actions"
            danger
            busy={refunding}
            label="Yes, Refund"
            busyLabel="Refunding..."
            onConfirm={() => refund.send({ type: 'refund.confirmed' })}
            onCancel={dismiss}
            cancelLabel="No, Keep Subscription"
          />
        </Modal>
      )}
    </div>
  );
}
