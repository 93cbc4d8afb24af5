import { formatAmount } from '../contract/billing';
import { MONEY_BACK_DAYS } from '../contract/subscriptions';
import { defineMail, noticeBody, utcMinute } from './layout';

export interface RefundReceiptMail {
  username: string;
  /** Cents. */
  amount: number;
  currency: string;
  /** The gateway's invoice id of the refunded payment. */
  invoiceId: string;
  /** The plan that ended with the refund; null when it was deleted since. */
  plan: string | null;
  refundedAt: Date;
  /** The Subscriptions tab, where billing history shows the invoice as Refunded. */
  subscriptionsUrl: string;
}

/** The receipt of the money-back guarantee's refund (api::subscription, issue 30 item 3). */
export default defineMail<RefundReceiptMail>({
  queue: 'other',
  render(input) {
    const amount = `${formatAmount(input.amount)} ${input.currency.toUpperCase()}`;
    const plan = input.plan ? `Your ${input.plan} subscription` : 'Your subscription';
    const lines = [
      `We refunded your first payment in full under our ${MONEY_BACK_DAYS}-day money-back guarantee.`,
      `Amount refunded: ${amount}`,
      `Invoice: ${input.invoiceId}`,
      `Refunded on: ${utcMinute(input.refundedAt)}`,
      'The money goes back to the card you paid with. Your bank usually shows it within 5 to 10 business days.',
      `${plan} has ended, and you will not be charged again. Your account, profile and data stay.`,
    ];
    const { text, html } = noticeBody(input.username, lines, {
      url: input.subscriptionsUrl,
      text: 'Your billing history',
      html: 'Your billing history',
    });
    return { subject: `Your Carnivo refund of ${amount}`, text, html };
  },
});
