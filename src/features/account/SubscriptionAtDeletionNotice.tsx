import { Link } from '@tanstack/react-router';
import { formatDateTime } from '../../../machines/rules/dates';
import { MONEY_BACK_DAYS } from '../../../server/src/contract/subscriptions';
import type { SubscriptionAtDeletion } from '../../../machines/deleteAccount.machine';

/**
 * What deleting the account does to the member's subscription (issue 30), on the Delete Account page
 * and in its dialog: the server ends it at once (no further charge, no refund of the days left), so a
 * member still within the money-back guarantee is told to ask for the refund first (Subscriptions tab).
 */
export function SubscriptionAtDeletionNotice({ subscription, id }: { subscription: SubscriptionAtDeletion; id?: string }) {
  if (subscription.kind === 'none') return null;
  if (subscription.kind === 'unknown') {
    return (
      <p id={id} className="alert alert--notice">
        We could not check your subscription. If you have one, it ends when your account is deleted, and you will not be charged again.
      </p>
    );
  }
  return (
    <div id={id} className="alert alert--notice">
      <p>
        {`Your ${subscription.plan ? `${subscription.plan} ` : ''}subscription ends when your account is deleted.`} You will not be charged
        again, and the rest of the period you have paid for is not refunded.
      </p>
      {subscription.refundableUntil && (
        <p>
          Your first payment is covered by our {MONEY_BACK_DAYS}-day money-back guarantee until{' '}
          {formatDateTime(subscription.refundableUntil)}. To get it back, request a refund on your profile&apos;s{' '}
          <Link to="/profile" search={{ tab: 'subscriptions' }}>
            Subscriptions tab
          </Link>{' '}
          before you delete your account.
        </p>
      )}
    </div>
  );
}
