import type { DeviceSummary } from '../security/user-agent';
import { defineMail, utcMinute } from './layout';
import { emailChangeBody } from './email-change-body';

export interface EmailChangeNoticeMail {
  username: string;
  oldEmail: string;
  newEmail: string;
  /** The link that voids the pending change. */
  cancelUrl: string;
  /** When and from which device the change was asked. */
  at: Date;
  device: DeviceSummary;
}

/** To the old address of a verified e-mail change: the owner's notice, with the cancel link (api::account.email-change). */
export default defineMail<EmailChangeNoticeMail>({
  queue: 'email-change',
  render({ username, oldEmail, newEmail, cancelUrl, at, device }) {
    return {
      subject: 'A change of your Carnivo e-mail address was requested',
      ...emailChangeBody(
        `Hello ${username},`,
        [
          `Someone asked to change the e-mail address of your Carnivo account from ${oldEmail} to ${newEmail}. Until the new address is confirmed (within 24 hours), this address stays the one you log in with.`,
          `It was asked at ${utcMinute(at)} from ${device.browser} on ${device.device}.`,
          'If this was you, there is nothing to do.',
          'If it was not, cancel the change and change your password: someone knows it.',
        ],
        cancelUrl,
        'Cancel the change',
      ),
    };
  },
});
