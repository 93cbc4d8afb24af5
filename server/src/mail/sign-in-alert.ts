import { escapeHtml } from '../escape-html';
import type { DeviceSummary } from '../security/user-agent';
import { SIGNATURE, defineMail, greeting, utcMinute } from './layout';

export interface SignInAlertMail {
  username: string | null;
  device: DeviceSummary;
  at: Date;
  /** The Security section of the profile. */
  securityUrl: string;
}

/** A sign-in from a device the member has not used lately (src/security/sessions/records.ts). */
export default defineMail<SignInAlertMail>({
  queue: 'other',
  render({ username, device, at, securityUrl }) {
    const what = `${device.browser} on ${device.device}`;
    const when = utcMinute(at);
    const text = [
      greeting(username),
      '',
      'Your Carnivo account was just signed in to from a device we have not seen before:',
      '',
      `  ${what}, ${when}`,
      '',
      'If this was you, there is nothing to do.',
      'If it was not, sign that device out and change your password in the Security section of your profile:',
      securityUrl,
      '',
      SIGNATURE,
    ].join('\n');
    const html = [
      `<p>Hello ${escapeHtml(username ?? '')},</p>`,
      '<p>Your Carnivo account was just signed in to from a device we have not seen before:</p>',
      `<p><strong>${escapeHtml(what)}</strong>, ${escapeHtml(when)}</p>`,
      '<p>If this was you, there is nothing to do.</p>',
      `<p>If it was not, sign that device out and change your password in the <a href="${escapeHtml(securityUrl)}">Security section of your profile</a>.</p>`,
      `<p>${SIGNATURE}</p>`,
    ].join('\n');
    return { subject: 'New sign-in to your Carnivo account', text, html };
  },
});
