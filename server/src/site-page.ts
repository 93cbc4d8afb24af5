import fs from 'node:fs/promises';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { escapeHtml } from './escape-html';

/**
 * Pages the server renders itself outside the SPA (the sandbox's receipts, the reminders'
 * unsubscribe answer), with the site's look: the built stylesheet, the header's logo and name
 * linking home, and the sign-in pages' card. Links are relative: this server serves the site.
 */

const STYLESHEET = /<link rel="stylesheet"[^>]*\shref="([^"]+)"/g;

/** The stylesheets the built index.html links (none when the SPA is not built), as spa.ts finds the build. */
export async function siteStylesheets(strapi: Core.Strapi): Promise<string[]> {
  const spaDir = path.resolve(process.env.SPA_DIR || path.resolve(strapi.dirs.app.root, '..', 'dist'));
  try {
    const shell = await fs.readFile(path.join(spaDir, 'index.html'), 'utf8');
    return [...shell.matchAll(STYLESHEET)].map((match) => match[1]);
  } catch {
    return [];
  }
}

export interface SitePage {
  /** The page's name; the tab reads "{title} - Carnivo". */
  title: string;
  /** The card's markup, escaped by the caller. */
  content: string;
  stylesheets: readonly string[];
}

export function sitePage({ title, content, stylesheets }: SitePage): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">',
    `<title>${escapeHtml(title)} - Carnivo</title>`,
    '<link rel="icon" type="image/svg+xml" href="/favicon.svg">',
    ...stylesheets.map((href) => `<link rel="stylesheet" crossorigin href="${escapeHtml(href)}">`),
    '</head>',
    '<body>',
    // The site header's brand (src/components/NavBar.tsx); the favicon is the logo.
    '<header class="site-header"><div class="site-header__bar"><a href="/" class="brand"><img src="/favicon.svg" alt="" width="32" height="32"><span>Carnivo</span></a></div></header>',
    // As the sign-in pages lay out their card (src/features/auth/LogInPage.tsx).
    `<main><section class="auth-page"><div class="auth-card">${content}</div></section></main>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
