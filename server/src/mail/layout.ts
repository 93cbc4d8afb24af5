import type { EmailKind } from '../api/email-message/services/mail-queue';
import { escapeHtml } from '../escape-html';

/** What a template makes of its data: the queue stores it as is. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

/**
 * One kind of e-mail: `queue` is the mail queue's kind of its rows (a 'reset', 'confirmation' or
 * 'email-change' body holds a secret and is wiped once sent), `render` builds it from typed data.
 */
export interface MailTemplate<Data> {
  queue: EmailKind;
  render(data: Data): RenderedMail;
}

export const defineMail = <Data>(template: MailTemplate<Data>): MailTemplate<Data> => template;

export const SIGNATURE = 'The Carnivo team';

/** "2026-11-27 16:05 UTC": the time every e-mail names. */
export const utcMinute = (at: Date): string => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * A plain notice: the greeting, one paragraph per line, a link and the signature, as text and as HTML
 * (every value escaped). `link.text` labels it in the text part, `link.html` in the HTML part.
 */
export function noticeBody(
  username: string,
  lines: readonly string[],
  link: { url: string; text: string; html: string },
): Pick<RenderedMail, 'text' | 'html'> {
  const text = [greeting(username), '', ...lines.flatMap((line) => [line, '']), `${link.text}: ${link.url}`, '', SIGNATURE].join('\n');
  const html = [
    `<p>${escapeHtml(greeting(username))}</p>`,
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.html)}</a></p>`,
    `<p>${SIGNATURE}</p>`,
  ].join('\n');
  return { text, html };
}

/** "Hello alice," (no name: "Hello,"). */
export const greeting = (username: string | null | undefined): string => `Hello ${username ?? ''},`.replace(' ,', ',');
