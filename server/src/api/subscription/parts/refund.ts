import type { Core } from '@strapi/strapi';
import { ConflictError } from '../../../payments/http';
import { firstPayment, holdsPlan, refundRefusals, refundableUntil, type RefundSubscriptionResponse } from '../../../contract/subscriptions';
import { sendMail } from '../../../mail/send';
import { publicUrl } from '../../../public-url';
import { nowStamp, toMs, type SubscriptionRecord, type SubscriptionRecords } from './records';

/**
 * The 30-day money-back guarantee (Refund Policy §1, issue 30 item 3): once per member, within
 * MONEY_BACK_DAYS of their first payment, that payment is refunded in full at the gateway and access
 * ends at once (every open subscription of the member ends now).
 */
export interface SubscriptionRefund {
  /** POST /api/subscriptions/refund (no body). */
  refund(userId: number): Promise<RefundSubscriptionResponse>;
}

export function subscriptionRefund(strapi: Core.Strapi, records: SubscriptionRecords): SubscriptionRefund {
  const { gateway } = records;

  /** Ends every open subscription of the member now at the gateway. */
  async function endAccess(live: SubscriptionRecord[]): Promise<void> {
    for (const record of live) await records.apply(record, await gateway().cancelNow(record.stripe_subscription_id), nowStamp());
  }

  const answerOf = (record: SubscriptionRecord): RefundSubscriptionResponse => ({
    invoiceId: record.refunded_invoice_id!,
    amount: record.refund_amount ?? 0,
    currency: record.refund_currency ?? 'usd',
  });

  return {
    refund(userId) {
      // Under the member's lock, in one transaction: two requests (two tabs, two instances) refund once.
      // The refund and its receipt are committed even when ending the subscription then fails at the
      // gateway (records.withMemberLock keeps the work of gateway errors); asked again, the refund
      // is not repeated and the subscription is ended.
      return records.withMemberLock(userId, async () => {
        const live = await records.liveRecords(userId);
        const claimed = (await records.allOf(userId)).find((record) => toMs(record.refunded_at) !== null);
        if (claimed) {
          if (!live.some((record) => record.id === claimed.id)) throw new ConflictError(refundRefusals.alreadyRefunded);
          await endAccess(live);
          return answerOf(claimed);
        }

        const held = live.find((record) => holdsPlan(record));
        if (!held) throw new ConflictError(refundRefusals.nothingToRefund);
        const invoices = await records.allInvoices(userId);
        const first = firstPayment(invoices);
        if (!first || refundableUntil(invoices, gateway().now().getTime()) === null) {
          throw new ConflictError(refundRefusals.windowPassed);
        }

        const customerId = await records.customerOf(userId);
        const refund = await gateway().refundInvoice(customerId!, first.id);
        const refundedAt = gateway().now();
        await records.recordRefund(held.id, {
          refunded_invoice_id: first.id,
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
            invoiceId: first.id,
            plan: held.plan?.name ?? null,
            refundedAt,
            subscriptionsUrl: `${publicUrl()}/profile?tab=subscriptions`,
          });
        }
        await endAccess(live);
        return { invoiceId: first.id, amount: refund.amount, currency: refund.currency };
      });
    },
  };
}
