import { escapeHtml } from '../escape-html';
import type { DeviceSummary } from '../security/user-agent';
import { SIGNATURE, defineMail, greeting, utcMinute } from './layout';

/** What the owner is told about, and what they should do if it was not them (docs/email.md#owner-notices). */
export const OWNER_EVENTS = {
  'password-changed': {
    subject: 'Your Carnivo password was changed',
    what: 'The password of your Carnivo account was changed.',
    help: 'reset',
  },
  'password-reset': {
    subject: 'Your Carnivo password was reset',
    what: 'The password of your Carnivo account was reset with a code sent to this address.',
    help: 'reset',
  },
  'two-factor-on': {
    subject: 'Two-factor authentication was turned on for your Carnivo account',
    what: 'Two-factor authentication was turned on for your Carnivo account: logging in now also asks for a code from an authenticator app.',
    help: 'reset',
  },
  'two-factor-off': {
    subject: 'Two-factor authentication was turned off for your Carnivo account',
    what: 'Two-factor authentication was turned off for your Carnivo account: logging in no longer asks for a code.',
    help: 'reset',
  },
  'recovery-codes': {
    subject: 'New recovery codes were made for your Carnivo account',
    what: 'New two-factor recovery codes were made for your Carnivo account; the earlier ones no longer work.',
    help: 'reset',
  },
  'passkey-added': {
    subject: 'A passkey was added to your Carnivo account',
    what: 'A passkey was added to your Carnivo account: it can now log in without the password.',
    help: 'reset',
  },
  'passkey-removed': {
    subject: 'A passkey was removed from your Carnivo account',
    what: 'A passkey was removed from your Carnivo account: it can no longer log in.',
    help: 'reset',
  },
  'account-deleted': {
    subject: 'Your Carnivo account was deleted',
    what: 'Your Carnivo account and everything in it were deleted.',
    help: 'contact',
  },
} as const satisfies Record<string, { subject: string; what: string; help: 'reset' | 'contact' }>;

export type OwnerEvent = keyof typeof OWNER_EVENTS;

/** Why passkeys went without the member removing them (src/security/step-up.ts removeRecentPasskeys). */
export const RECENT_PASSKEYS_REMOVED_BECAUSE = {
  'logout-all': 'every device was logged out of the account',
  password: 'the password was changed or reset',
} as const;
export type RecentPasskeysReason = keyof typeof RECENT_PASSKEYS_REMOVED_BECAUSE;

/** The passkey-removed notice's detail when a log-out of all devices or a new password removed the recent ones, by their names. */
export function recentPasskeysRemoved(names: readonly string[], reason: RecentPasskeysReason, minutes: number): string {
  const one = names.length === 1;
  const which = names.map((name) => `"${name}"`).join(', ');
  return (
    `Removed: ${names.length} ${one ? 'passkey' : 'passkeys'} added in the last ${minutes} minutes (${which}), because ` +
    `${RECENT_PASSKEYS_REMOVED_BECAUSE[reason]}: a passkey added lately could be someone else's way back in. ` +
    `If you added ${one ? 'it' : 'them'}, add ${one ? 'it' : 'them'} again in the Security section of your profile.`
  );
}

export interface OwnerNoticeMail {
  username: string | null;
  event: OwnerEvent;
  /** More about what happened, told after what (which passkeys went and why). */
  detail?: string | null;
  at: Date;
  /** The device of the request that did it. */
  device: DeviceSummary;
  /** Where to reset the password (the Reset Password page). */
  resetUrl: string;
  /** The Security section of the profile. */
  securityUrl: string;
  /** The Contact page (a deleted account has nothing left to secure). */
  contactUrl: string;
}

const HELP = {
  reset: {
    text: 'If it was not, reset your password now (every device is signed out), then check the Security section of your profile:',
    action: 'Reset your password',
  },
  contact: { text: 'If it was not, contact us at once:', action: 'Contact Carnivo' },
} as const;

/** A change to the member's account or its security, told to the account's address (src/mail/notify-owner.ts). */
export default defineMail<OwnerNoticeMail>({
  queue: 'other',
  render({ username, event, detail, at, device, resetUrl, securityUrl, contactUrl }) {
    const { subject, what, help } = OWNER_EVENTS[event];
    const advice = HELP[help];
    const when = utcMinute(at);
    const from = `${device.browser} on ${device.device}`;
    const links = help === 'reset' ? [resetUrl, securityUrl] : [contactUrl];
    const text = [
      greeting(username),
      '',
      what,
      ...(detail ? ['', detail] : []),
      '',
      `  When: ${when}`,
      `  Device: ${from}`,
      '',
      'If this was you, there is nothing to do.',
      advice.text,
      ...links,
      '',
      SIGNATURE,
    ].join('\n');
    const html = [
      `<p>${escapeHtml(greeting(username))}</p>`,
      `<p>${escapeHtml(what)}</p>`,
      ...(detail ? [`<p>${escapeHtml(detail)}</p>`] : []),
      `<p>When: ${escapeHtml(when)}<br>Device: ${escapeHtml(from)}</p>`,
      '<p>If this was you, there is nothing to do.</p>',
      `<p>${escapeHtml(advice.text)}<br><a href="${escapeHtml(links[0])}">${advice.action}</a>${
        help === 'reset' ? `<br><a href="${escapeHtml(securityUrl)}">Security section of your profile</a>` : ''
      }</p>`,
      `<p>${SIGNATURE}</p>`,
    ].join('\n');
    return { subject, text, html };
  },
});
