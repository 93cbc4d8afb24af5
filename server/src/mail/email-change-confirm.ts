import { defineMail, utcMinute } from './layout';
import { emailChangeBody } from './email-change-body';

export interface EmailChangeConfirmMail {
  username: string;
  newEmail: string;
  /** The link that makes the change. */
  confirmUrl: string;
  expiresAt: Date;
}

/** To the new address of a verified e-mail change (api::account.email-change). */
export default defineMail<EmailChangeConfirmMail>({
  queue: 'email-change',
  render({ username, newEmail, confirmUrl, expiresAt }) {
    return {
      subject: 'Confirm the new e-mail address of your Carnivo account',
      ...emailChangeBody(
        `Hello ${username},`,
        [
          `You asked to use ${newEmail} for your Carnivo account. Your e-mail changes only when you open this link.`,
          `The link works once, until ${utcMinute(expiresAt)} (24 hours). A newer request replaces it.`,
          'If you did not ask for this, ignore this e-mail: nothing changes.',
        ],
        confirmUrl,
        'Confirm your new e-mail address',
      ),
    };
  },
});
