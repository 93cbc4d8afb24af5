import { escapeHtml } from '../escape-html';
import { sitePage } from '../site-page';

/** The page the unsubscribe link answers with, in the site's look; `profilePath` is relative to the site. */
export function unsubscribePage(title: string, message: string, profilePath: string, stylesheets: readonly string[]): string {
  return sitePage({
    title,
    content: [
      `<h1>${escapeHtml(title)}</h1>`,
      `<p>${escapeHtml(message)}</p>`,
      `<p class="auth-card__links"><a href="${escapeHtml(profilePath)}">Go to your profile</a><a href="/">Back to Carnivo</a></p>`,
    ].join('\n'),
    stylesheets,
  });
}
