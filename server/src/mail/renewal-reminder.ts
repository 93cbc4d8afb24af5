import { formatAmount } from '../contract/billing';
import { defineMail, noticeBody, utcMinute } from './layout';

export interface RenewalReminderMail {
  username: string;
  plan: string;
  /** Cents, charged at the renewal. */
  amount: number;
  currency: string;
  renewsAt: Date;
  /** The Subscriptions tab, where Unsubscribe stops the renewal. */
  subscriptionsUrl: string;
}

/** "December 28, 2026": the renewal's day, in UTC (the e-mail cannot know the reader's zone). */
const day = (at: Date) => at.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** Before a yearly plan renews (automatic-renewal laws ask for one; api::subscription, issue 30 item 5). */
export default defineMail<RenewalReminderMail>({
  queue: 'reminder',
  render(input) {
    const amount = `${formatAmount(input.amount)} ${input.currency.toUpperCase()}`;
    // The exact moment, in UTC: a day alone would read as the reader's own day, which may start after the charge.
    const at = utcMinute(input.renewsAt);
    const lines = [
      `Your ${input.plan} subscription renews on ${day(input.renewsAt)} (${at}), and ${amount} will be charged to your card on file.`,
      'You do not need to do anything to keep it.',
      `To stop it, unsubscribe before ${at} on your profile's Subscriptions tab. You keep access until then, and you will not be charged again.`,
    ];
    const { text, html } = noticeBody(input.username, lines, {
      url: input.subscriptionsUrl,
      text: 'Your subscription',
      html: 'Manage your subscription',
    });
    return { subject: `Your ${input.plan} renews on ${day(input.renewsAt)}`, text, html };
  },
});
