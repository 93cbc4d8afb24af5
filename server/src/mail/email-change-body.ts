import { escapeHtml } from '../escape-html';
import { SIGNATURE } from './layout';

/** The shape both e-mails of an e-mail change share: a first line, the link, then the rest. */
export function emailChangeBody(greeting: string, lines: readonly [string, ...string[]], url: string, action: string) {
  return {
    text: [greeting, '', lines[0], '', `${action}:`, url, '', ...lines.slice(1), '', SIGNATURE].join('\n'),
    html: [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(lines[0])}</p>`,
      `<p><a href="${escapeHtml(url)}">${escapeHtml(action)}</a>:<br>${escapeHtml(url)}</p>`,
      ...lines.slice(1).map((line) => `<p>${escapeHtml(line)}</p>`),
      `<p>${SIGNATURE}</p>`,
    ].join('\n'),
  };
}
