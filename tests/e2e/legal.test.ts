import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Route } from 'playwright-core';
import {
  WAIT_MS,
  closeBrowser,
  launchBrowser,
  newContext,
  openLoggedIn,
  createUser,
  waitForHydration,
  waitForPath,
} from './support/browser';

const poll = { timeout: WAIT_MS, interval: 50 };

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await closeBrowser(browser);
});

async function withPage(run: (page: Page) => Promise<void>) {
  const context = await newContext(browser);
  try {
    await run(await context.newPage());
  } finally {
    await context.close();
  }
}

const legalPages = [
  {
    path: '/privacy-policy',
    api: '/api/privacy-policy',
    nav: 'Privacy Policy',
    heading: 'Privacy Policy',
    section: '4. How long we keep it',
    error: 'Failed to load Privacy Policy',
  },
  {
    path: '/terms',
    api: '/api/terms-and-condition',
    nav: 'Terms',
    heading: 'Terms and Conditions',
    section: '2. Health disclaimer',
    error: 'Failed to load Terms and Conditions',
  },
  {
    path: '/refund-policy',
    api: '/api/refund-policy',
    nav: 'Refund Policy',
    heading: 'Refund Policy',
    section: '1. 30-day money-back guarantee',
    error: 'Failed to load Refund Policy',
  },
];

describe('legal pages', () => {
  it.each(legalPages)(
    '$path is served with the seeded text in its HTML, and fetched from $api when reached in the app',
    async ({ path, api, heading, section, nav }) => {
      await withPage(async (page) => {
        const apiCalls: string[] = [];
        const markdownChunks: string[] = [];
        page.on('request', (request) => {
          const { pathname } = new URL(request.url());
          if (pathname === api) apiCalls.push(request.url());
          if (/^\/assets\/Markdown-[\w-]+\.js$/.test(pathname)) markdownChunks.push(pathname);
        });
        const document = await page.goto(path);
        // Prerendered: the text is in the HTML itself, and the page needs no request for it.
        const html = (await document?.text()) ?? '';
        expect(html).toContain(`<h1>${heading}</h1>`);
        expect(html).toContain(section);
        const main = page.getByRole('main');
        await main.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
        await main.getByText('Last Updated: May 16, 2025', { exact: true }).waitFor();
        await main.getByRole('heading', { level: 2, name: section }).waitFor();
        await expect.poll(() => page.title(), poll).toBe(`Carnivo - ${heading}`);
        // Markdown links are real links; mailto stays mailto.
        expect(await main.locator('a[href="mailto:support@carnivo.app"]').count()).toBeGreaterThan(0);
        expect(apiCalls).toEqual([]);

        await waitForHydration(page);
        await page.waitForLoadState('networkidle');
        // Hydrated, the page keeps the server's text: the markdown renderer is not even loaded.
        expect(markdownChunks).toEqual([]);
        await main.getByRole('heading', { level: 2, name: section }).waitFor();
        await main.getByRole('link', { name: '← Back to Home' }).click();
        await waitForPath(page, '/');
        await main.getByRole('heading', { level: 1, name: 'The diet app made for carnivore and ketovore eaters' }).waitFor();

        // Reached inside the app, the page's machine loads the text from the API (SPEC §7).
        const answer = page.waitForResponse((response) => new URL(response.url()).pathname === api);
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: nav, exact: true }).click();
        const response = await answer;
        expect(response.status()).toBe(200);
        const served = (await response.json()) as { data: Record<string, string> };
        expect(served.data[path === '/privacy-policy' ? 'Text' : 'Title']).toBe(heading);
        await main.getByRole('heading', { level: 2, name: section }).waitFor();
        expect(markdownChunks).toHaveLength(1);
      });
    },
  );

  it('opens a site link inside the markdown without leaving the app', async () => {
    await withPage(async (page) => {
      await page.goto('/privacy-policy');
      const main = page.getByRole('main');
      await main.getByRole('heading', { level: 2, name: '5. Deleting your account' }).waitFor();
      await waitForHydration(page);
      await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));
      await main.getByRole('link', { name: 'Delete Account' }).first().click();
      await waitForPath(page, '/delete-profile');
      expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    });
  });

  // The prerendered HTML already holds the text; the loading, error and Retry flow runs when the page
  // is reached inside the app (or when the server could not supply the text).
  it.each(legalPages)('$path shows its error and recovers on Retry when $api fails once', async ({ api, nav, heading, section, error }) => {
    await withPage(async (page) => {
      let failures = 0;
      await page.route(`**${api}`, async (route: Route) => {
        if (failures === 0) {
          failures += 1;
          await route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: '{"data":null,"error":{"status":500,"message":"boom"}}',
          });
        } else {
          await route.continue();
        }
      });
      await page.goto('/');
      await waitForHydration(page);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: nav, exact: true }).click();
      const main = page.getByRole('main');
      const alert = main.getByRole('alert');
      await alert.waitFor();
      expect(await alert.innerText()).toBe(error);
      expect(await main.getByText('Last Updated: May 16, 2025').count()).toBe(0);
      await main.getByRole('button', { name: 'Retry' }).click();
      await main.getByRole('heading', { level: 2, name: section }).waitFor();
      await main.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
      expect(await main.getByRole('alert').count()).toBe(0);
      expect(failures).toBe(1);
    });
  });

  it('a network failure shows the error too, and Retry with the network back loads the text', async () => {
    await withPage(async (page) => {
      await page.route('**/api/refund-policy', (route) => route.abort('connectionrefused'));
      await page.goto('/');
      await waitForHydration(page);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Refund Policy', exact: true }).click();
      const main = page.getByRole('main');
      await main.getByRole('alert').waitFor();
      expect(await main.getByRole('alert').innerText()).toBe('Failed to load Refund Policy');
      await page.unroute('**/api/refund-policy');
      await main.getByRole('button', { name: 'Retry' }).click();
      await main.getByText('Last Updated: May 16, 2025').waitFor();
    });
  });

  it('loads for a logged-in visitor too', async () => {
    const user = await createUser();
    await withPage(async (page) => {
      await openLoggedIn(page, user, '/terms');
      await page.getByRole('main').getByRole('heading', { level: 2, name: '2. Health disclaimer' }).waitFor();
    });
  });
});
