import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  WAIT_MS,
  closeBrowser,
  createUser,
  launchBrowser,
  newContext,
  openLoggedIn,
  waitForHydration,
  type TestUser,
} from './support/browser';

/**
 * Prerendered public pages in a real browser: the HTML alone shows the page (no JavaScript), and
 * with JavaScript the app takes the page over without a hydration mismatch or any console error,
 * for a visitor and for a logged-in member (whose navigation differs from the HTML's).
 */

const PAGES = [
  { path: '/', heading: 'The diet app made for carnivore and ketovore eaters' },
  { path: '/about', heading: 'About Carnivo' },
  { path: '/company-details', heading: 'Company Details' },
  { path: '/features', heading: null },
  { path: '/contact', heading: null },
  { path: '/privacy-policy', heading: 'Privacy Policy' },
  { path: '/terms', heading: 'Terms and Conditions' },
  { path: '/refund-policy', heading: 'Refund Policy' },
  { path: '/login', heading: 'Log In' },
  { path: '/signup', heading: 'Sign Up' },
  { path: '/reset-password?code=ABCDE12345', heading: null },
  { path: '/email-confirmation', heading: 'Email Confirmed' },
];

let browser: Browser;
let member: TestUser;

beforeAll(async () => {
  browser = await launchBrowser();
  member = await createUser();
});

afterAll(async () => {
  await closeBrowser(browser);
});

/** Console errors and warnings, and uncaught errors, while `run` goes. */
async function consoleProblems(page: Page, run: () => Promise<void>): Promise<string[]> {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  await run();
  return problems;
}

/** Hydrated, then its effects and the second render (a member's navigation) have run. */
async function hydrated(page: Page) {
  await waitForHydration(page);
  await page.waitForLoadState('networkidle');
}

describe('prerendered public pages', () => {
  it.each(PAGES)('$path shows its content with JavaScript off', async ({ path, heading }) => {
    const context = await newContext(browser, { javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(path);
      const h1 = page.getByRole('main').getByRole('heading', { level: 1 });
      expect(await h1.count()).toBe(1);
      if (heading) expect((await h1.innerText()).trim()).toBe(heading);
      expect(await page.title()).toMatch(/^Carnivo - /);
    } finally {
      await context.close();
    }
  });

  it.each(PAGES)('$path hydrates for a visitor with no console error', async ({ path }) => {
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      const requested: string[] = [];
      page.on('request', (request) => requested.push(new URL(request.url()).pathname));
      const problems = await consoleProblems(page, async () => {
        await page.goto(path);
        await hydrated(page);
      });
      expect(problems).toEqual([]);
      expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log In' }).count()).toBe(1);
      // The page's chunks, named for the app loader, were each fetched once (preloaded, then imported).
      const chunks = ((await page.locator('#carnivo-app').getAttribute('data-chunks')) ?? '').split(' ').filter(Boolean);
      for (const chunk of chunks)
        expect(
          requested.filter((url) => url === chunk),
          chunk,
        ).toHaveLength(1);
    } finally {
      await context.close();
    }
  });

  it.each(PAGES.filter(({ path }) => path !== '/login' && path !== '/signup'))(
    '$path hydrates for a logged-in member, then shows the member navigation',
    async ({ path }) => {
      const context = await newContext(browser);
      try {
        const page = await context.newPage();
        const problems = await consoleProblems(page, async () => {
          await openLoggedIn(page, member, path);
          await hydrated(page);
        });
        expect(problems).toEqual([]);
        await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log Out' }).waitFor({ timeout: WAIT_MS });
      } finally {
        await context.close();
      }
    },
  );

  it('a member who opens /login goes on to their page, with no console error', async () => {
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      const problems = await consoleProblems(page, async () => {
        await openLoggedIn(page, member, '/login?from=/about');
        await page.waitForURL((url) => url.pathname === '/about', { timeout: WAIT_MS });
        await page.getByRole('heading', { level: 1, name: 'About Carnivo' }).waitFor({ timeout: WAIT_MS });
      });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
