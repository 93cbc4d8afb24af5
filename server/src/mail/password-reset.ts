import { escapeHtml } from '../escape-html';
import { SIGNATURE, defineMail } from './layout';

export interface PasswordResetMail {
  username: string;
  code: string;
  /** The Reset Password page with the code filled in. */
  link: string;
  expiresAt: Date;
}

/** The e-mailed reset code (api::account.password-reset). */
export default defineMail<PasswordResetMail>({
  queue: 'reset',
  render({ username, code, link, expiresAt }) {
    const expiry = `${expiresAt.toISOString().slice(11, 16)} UTC`;
    const text = [
      `Hello ${username},`,
      '',
      'We received a request to reset the password of your Carnivo account.',
      '',
      `Your reset code: ${code}`,
      '',
      'Enter it on the Reset Password page, or open this link:',
      link,
      '',
      `The code works once and expires in 1 hour (at ${expiry}). A newer request replaces it.`,
      'If you did not ask to reset your password, ignore this email: your password stays the same.',
      '',
      SIGNATURE,
    ].join('\n');
    const html = [
      `<p>Hello ${escapeHtml(username)},</p>`,
      '<p>We received a request to reset the password of your Carnivo account.</p>',
      `<p>Your reset code:</p><p style="font-size:24px;font-weight:bold;letter-spacing:3px;font-family:monospace">${escapeHtml(code)}</p>`,
      `<p>Enter it on the Reset Password page, or <a href="${escapeHtml(link)}">reset your password here</a>:<br>${escapeHtml(link)}</p>`,
      `<p>The code works once and expires in 1 hour (at ${expiry}). A newer request replaces it.</p>`,
      '<p>If you did not ask to reset your password, ignore this email: your password stays the same.</p>',
      `<p>${SIGNATURE}</p>`,
    ].join('\n');
    return { subject: 'Your Carnivo password reset code', text, html };
  },
});
