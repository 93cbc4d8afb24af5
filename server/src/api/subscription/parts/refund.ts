import type { Core } from '@strapi/strapi';
import { ConflictError } from '../../../payments/http';
import { holdsPlan, refundRefusals, type RefundSubscriptionResponse } from '../../../contract/subscriptions';
import { sendMail } from '../../../mail/send';
import { profileTabUrl } from '../../../public-url';
import { nowStamp, type SubscriptionRecords } from './records';

/**
 * The 30-day money-back guarantee (Refund Policy §1, issue 30 item 3): once per member, within
 * MONEY_BACK_DAYS of their first payment, that payment is refunded in full at the gateway and the
 * subscription it paid for ends at once (records.refundOffer says which).
 */
export interface SubscriptionRefund {
  /** POST /api/subscriptions/refund (no body). */
  refund(userId: number): Promise<RefundSubscriptionResponse>;
}

export function subscriptionRefund(strapi: Core.Strapi, records: SubscriptionRecords): SubscriptionRefund {
  const { gateway } = records;

  return {
    refund(userId) {
      // Under the member's lock: requests from two tabs or two instances go one after the other, and the
      // second finds the refund recorded.
      return records.withMemberLock(userId, async () => {
        if (await records.refundClaimed(userId)) throw new ConflictError(refundRefusals.alreadyRefunded);
        const held = (await records.liveRecords(userId)).filter((record) => holdsPlan(record));
        if (held.length === 0) throw new ConflictError(refundRefusals.nothingToRefund);
        const offer = await records.refundOffer(userId, held);
        if (!offer) throw new ConflictError(refundRefusals.windowPassed);

        const customerId = await records.customerOf(userId);
        const refund = await gateway().refundInvoice(customerId!, offer.invoice.id);
        // The refunded subscription ends now; a plan bought since, and paid apart, goes on. The refund is recorded
        // (and its receipt queued) only once that subscription has ended: should ending it fail at the gateway,
        // the offer stays, and asking again repeats the refund (one refund at the gateway) and the end.
        await records.apply(offer.record, await gateway().cancelNow(offer.record.stripe_subscription_id), nowStamp());
        const refundedAt = gateway().now();
        await records.recordRefund(offer.record.id, {
          refunded_invoice_id: offer.invoice.id,
          refunded_at: refundedAt,
          refund_amount: refund.amount,
          refund_currency: refund.currency,
        });
        const member = await records.member(userId);
        if (member) {
          await sendMail(strapi, 'refund-receipt', member.email, {
            username: member.username,
            amount: refund.amount,
            currency: refund.currency,
            invoiceId: offer.invoice.id,
            plan: offer.record.plan?.name ?? null,
            refundedAt,
            subscriptionsUrl: profileTabUrl('subscriptions'),
          });
        }
        return { invoiceId: offer.invoice.id, amount: refund.amount, currency: refund.currency };
      });
    },
  };
}
