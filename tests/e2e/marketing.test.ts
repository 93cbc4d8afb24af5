import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { controlsNotReachedByTab, scrollWidth, seriousAxeViolations } from './support/a11y';
import {
  DESKTOP,
  MOBILE,
  WAIT_MS,
  closeBrowser,
  createUser,
  launchBrowser,
  newContext,
  openLoggedIn,
  screenshot,
  waitForHydration,
  waitForPath,
  type TestUser,
} from './support/browser';

const poll = { timeout: WAIT_MS, interval: 50 };

const STORE_URLS = {
  appStore: 'https://apps.apple.com/app/carnivo-carnivore-diet/id6450000000',
  googlePlay: 'https://play.google.com/store/apps/details?id=app.carnivo.diet',
};

let browser: Browser;
let user: TestUser;

beforeAll(async () => {
  browser = await launchBrowser();
  user = await createUser();
});

afterAll(async () => {
  await closeBrowser(browser);
});

type SitePage = { path: string; name: string; heading: string; title: string; ready?: string };

/** Every page of the marketing-site issue. */
const sitePages: SitePage[] = [
  {
    path: '/',
    name: 'home',
    heading: 'The diet app made for carnivore and ketovore eaters',
    title: 'Carnivo - Carnivore & Ketovore Diet App',
  },
  { path: '/about', name: 'about', heading: 'About Carnivo', title: 'Carnivo - About' },
  { path: '/company-details', name: 'company-details', heading: 'Company Details', title: 'Carnivo - Company Details' },
  { path: '/features', name: 'features', heading: 'Carnivore Diet Features', title: 'Carnivo - Features' },
  { path: '/contact', name: 'contact', heading: 'Contact Us', title: 'Carnivo - Contact' },
  {
    path: '/privacy-policy',
    name: 'privacy-policy',
    heading: 'Privacy Policy',
    title: 'Carnivo - Privacy Policy',
    ready: 'Last Updated: May 16, 2025',
  },
  {
    path: '/terms',
    name: 'terms',
    heading: 'Terms and Conditions',
    title: 'Carnivo - Terms and Conditions',
    ready: 'Last Updated: May 16, 2025',
  },
  {
    path: '/refund-policy',
    name: 'refund-policy',
    heading: 'Refund Policy',
    title: 'Carnivo - Refund Policy',
    ready: 'Last Updated: May 16, 2025',
  },
  { path: '/email-confirmation', name: 'email-confirmation', heading: 'Email Confirmed', title: 'Carnivo - Email Confirmed' },
];

/** Opens a page and waits until it shows its content (legal pages: the server's text). */
async function open(page: Page, { path, heading, ready }: SitePage) {
  await page.goto(path);
  await waitForPath(page, path);
  await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
  if (ready) await page.getByText(ready).waitFor();
  // The page is prerendered: its controls work (and take focus) once the app has taken it over.
  await waitForHydration(page);
}

/** Scrolls through the page so lazy images load, then waits for every image. */
async function loadAllImages(page: Page) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    window.scrollTo(0, 0);
  });
  await page.waitForFunction(() => [...document.images].every((image) => image.complete), undefined, { timeout: WAIT_MS });
}

async function withContext<T>(options: Parameters<typeof newContext>[1], run: (page: Page, context: BrowserContext) => Promise<T>) {
  const context = await newContext(browser, options);
  try {
    return await run(await context.newPage(), context);
  } finally {
    await context.close();
  }
}

describe.each([
  { label: 'mobile', viewport: MOBILE },
  { label: 'desktop', viewport: DESKTOP },
])('every page at $label size ($viewport.width px): title, description, axe-core, screenshot', ({ label, viewport }) => {
  it.each(sitePages)('$path', async (sitePage) => {
    await withContext({ viewport, bypassCSP: true }, async (page) => {
      await open(page, sitePage);
      await expect.poll(() => page.title(), poll).toBe(sitePage.title);
      const description = await page.locator('head meta[name="description"]').getAttribute('content');
      expect(description?.length ?? 0).toBeGreaterThan(30);
      await loadAllImages(page);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(viewport.width);
      await screenshot(page, `marketing-${label}-${sitePage.name}`);
    });
  });
});

describe('at 320 px wide nothing scrolls sideways', () => {
  it.each(sitePages)('$path', async (sitePage) => {
    await withContext({ viewport: { width: 320, height: 640 } }, async (page) => {
      await open(page, sitePage);
      await loadAllImages(page);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(320);
    });
  });
});

describe('keyboard', () => {
  it.each(sitePages)('every control of $path is reached with Tab', async (sitePage) => {
    await withContext({ viewport: DESKTOP }, async (page) => {
      await open(page, sitePage);
      expect(await controlsNotReachedByTab(page)).toEqual([]);
    });
  });

  it('opens an FAQ answer and pauses the stats from the keyboard', async () => {
    await withContext({ viewport: DESKTOP }, async (page) => {
      await open(page, sitePages[0]);
      const question = page.getByText('How does the elimination diet feature work?');
      await question.focus();
      await page.keyboard.press('Enter');
      await page.getByText(/schedules the foods back one at a time/).waitFor({ state: 'visible' });
      await page.getByRole('button', { name: 'Pause stats' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Play stats' }).waitFor();
    });
  });

  it('fills and sends the Contact form from the keyboard: only the alert shows', async () => {
    await withContext({ viewport: DESKTOP }, async (page) => {
      await open(page, sitePages[4]);
      const apiCalls: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/api/')) apiCalls.push(request.url());
      });
      const dialogs: Array<{ type: string; message: string }> = [];
      page.on('dialog', (dialog) => {
        dialogs.push({ type: dialog.type(), message: dialog.message() });
        void dialog.accept();
      });
      await page.getByLabel('Name').focus();
      await page.keyboard.type('Ribeye Fan');
      await page.keyboard.press('Tab');
      await page.keyboard.type('fan@example.com');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Do you ship to Canada?');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Send Message');
      await page.keyboard.press('Enter');
      await expect
        .poll(() => dialogs, poll)
        .toEqual([
          {
            type: 'alert',
            message: 'Form submission is disabled due to sandbox restrictions. Please email support@carnivo.app directly.',
          },
        ]);
      expect(apiCalls).toEqual([]);
    });
  });
});

describe('landing page', () => {
  it('rotates the hero stats every 3 seconds without moving the layout', async () => {
    await withContext({ viewport: MOBILE }, async (page) => {
      await open(page, sitePages[0]);
      const stat = page.getByTestId('hero-stat');
      const promo = page.locator('.promo-banner');
      const first = await stat.innerText();
      const before = await promo.boundingBox();
      const startedAt = Date.now();
      await expect.poll(() => stat.innerText(), { timeout: 6_000, interval: 100 }).not.toBe(first);
      const elapsed = Date.now() - startedAt;
      expect(elapsed).toBeLessThan(4_500);
      const second = await stat.innerText();
      expect(await promo.boundingBox()).toEqual(before);
      await expect.poll(() => stat.innerText(), { timeout: 6_000, interval: 100 }).not.toBe(second);
      expect(await promo.boundingBox()).toEqual(before);
    });
  });

  it('keeps the first stat for people who prefer reduced motion', async () => {
    await withContext({ viewport: MOBILE, reducedMotion: 'reduce' }, async (page) => {
      await open(page, sitePages[0]);
      const stat = page.getByTestId('hero-stat');
      const first = await stat.innerText();
      await page.waitForTimeout(3_600);
      expect(await stat.innerText()).toBe(first);
      expect(await page.getByRole('button', { name: 'Pause stats' }).count()).toBe(0);
    });
  });

  it('carries JSON-LD for the app (4.8, 50000 reviews, 0 USD), the organization and a /search?q= action', async () => {
    await withContext({}, async (page) => {
      await open(page, sitePages[0]);
      const json = await page.locator('script[type="application/ld+json"]').textContent();
      const graph = (JSON.parse(json ?? '{}') as { '@graph': Array<Record<string, any>> })['@graph'];
      const byType = Object.fromEntries(graph.map((node) => [node['@type'], node]));
      expect(byType.MobileApplication.aggregateRating).toMatchObject({ ratingValue: 4.8, reviewCount: 50000 });
      expect(byType.MobileApplication.offers).toMatchObject({ price: 0, priceCurrency: 'USD' });
      expect(byType.Organization.name).toBe('Carnivo');
      expect(byType.WebSite.potentialAction.target.urlTemplate).toMatch(/\/search\?q=\{search_term_string\}$/);
      expect(await page.locator('head meta[name="keywords"]').getAttribute('content')).toContain('carnivore diet app');
    });
  });

  it('opens the App Store and Google Play in new tabs', async () => {
    await withContext({}, async (page, context) => {
      await context.route(/^https:\/\/(apps\.apple\.com|play\.google\.com)\//, (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: '<title>store</title>' }),
      );
      await open(page, sitePages[0]);
      const cta = page.locator('.cta');
      for (const [name, url] of [
        [/Download on the App Store/, STORE_URLS.appStore],
        [/Get it on Google Play/, STORE_URLS.googlePlay],
      ] as const) {
        const popup = context.waitForEvent('page');
        await cta.getByRole('link', { name }).click();
        const tab = await popup;
        await tab.waitForURL(url, { timeout: WAIT_MS });
        expect(page.url()).toMatch(/\/$/);
        await tab.close();
      }
    });
  });
});

const footer = (page: Page) => page.getByRole('navigation', { name: 'Footer' });

async function footerLinks(page: Page): Promise<Array<[string, string | null]>> {
  const links = footer(page).getByRole('link');
  await links.first().waitFor();
  const result: Array<[string, string | null]> = [];
  for (const link of await links.all()) result.push([(await link.innerText()).trim(), await link.getAttribute('href')]);
  return result;
}

describe('footers', () => {
  const variants = [
    {
      page: sitePages[0],
      loggedOut: [
        ['Start Carnivore Journey', '/signup'],
        ['Log In', '/login'],
        ['Carnivore Diet Features', '/features'],
        ['Privacy Policy', '/privacy-policy'],
        ['Terms and Conditions', '/terms'],
        ['Contact', '/contact'],
      ],
      loggedIn: [
        ['Profile', '/profile'],
        ['Privacy Policy', '/privacy-policy'],
        ['Terms and Conditions', '/terms'],
        ['Contact', '/contact'],
      ],
    },
    {
      page: sitePages[4],
      loggedOut: [
        ['Sign Up', '/signup'],
        ['Log In', '/login'],
        ['Learn More', '/features'],
        ['Privacy Policy', '/privacy-policy'],
        ['Terms of Service', '/terms'],
        ['Contact Us', '/contact'],
      ],
      loggedIn: [
        ['Profile', '/profile'],
        ['Privacy Policy', '/privacy-policy'],
        ['Terms of Service', '/terms'],
        ['Contact Us', '/contact'],
      ],
    },
  ];

  it.each(variants)('$page.path footer, logged out and logged in', async ({ page: sitePage, loggedOut, loggedIn }) => {
    await withContext({}, async (page) => {
      await open(page, sitePage);
      expect(await footerLinks(page)).toEqual(loggedOut);
      await footer(page).getByRole('link', { name: loggedOut[2][0] }).click();
      await waitForPath(page, loggedOut[2][1]);

      await openLoggedIn(page, user, sitePage.path);
      await page.getByRole('heading', { level: 1, name: sitePage.heading }).waitFor();
      await expect.poll(() => footerLinks(page), poll).toEqual(loggedIn);
      await footer(page).getByRole('link', { name: 'Profile' }).click();
      await waitForPath(page, '/profile');
    });
  });
});

describe('About', () => {
  it("logged out: 'Join the Community' and 'Get Started' go to /signup; the mission links to /company-details", async () => {
    await withContext({}, async (page) => {
      await open(page, sitePages[1]);
      const main = page.getByRole('main');
      expect(await main.getByRole('link', { name: 'Get Started' }).getAttribute('href')).toBe('/signup');
      await main.getByRole('link', { name: 'Join the Community' }).click();
      await waitForPath(page, '/signup');
      await page.getByRole('heading', { level: 1, name: 'Sign Up' }).waitFor();
      await page.goBack();
      await main.getByRole('link', { name: 'Company Details' }).click();
      await waitForPath(page, '/company-details');
    });
  });

  it("logged in: 'Explore Your Profile' and 'Get Started' go to /profile", async () => {
    await withContext({}, async (page) => {
      await openLoggedIn(page, user, '/about');
      const main = page.getByRole('main');
      await main.getByRole('link', { name: 'Explore Your Profile' }).waitFor();
      expect(await main.getByRole('link', { name: 'Join the Community' }).count()).toBe(0);
      await main.getByRole('link', { name: 'Get Started' }).click();
      await waitForPath(page, '/profile');
    });
  });
});

describe('Company Details, Features and Contact content', () => {
  it('Company Details shows the values, two co-founders, the timeline, contact cards and social links', async () => {
    await withContext({}, async (page) => {
      await open(page, sitePages[2]);
      const text = await page.getByRole('main').innerText();
      for (const fact of [
        'Health First',
        'Innovation',
        'Transparency',
        'Co-founder and CEO',
        'Co-founder and CTO',
        'Company founded',
        'App launched',
        '10,000 users',
        '50,000+ community',
        'Global expansion',
        'Monday to Friday, 9 AM to 5 PM Pacific',
      ]) {
        expect(text).toContain(fact);
      }
      for (const name of ['Facebook', 'Twitter', 'Instagram']) {
        expect(await page.getByRole('link', { name: new RegExp(`^${name}`) }).getAttribute('target')).toBe('_blank');
      }
    });
  });

  it('Features shows nine cards whose screenshots load, and a broken screenshot falls back to the placeholder', async () => {
    await withContext({}, async (page) => {
      await page.route('**/images/screens/mood.svg', (route) => route.fulfill({ status: 404, body: 'missing' }));
      await open(page, sitePages[3]);
      await loadAllImages(page);
      const cards = page.locator('.feature-card');
      expect(await cards.count()).toBe(9);
      const images = await page
        .locator('.feature-card img')
        .evaluateAll((imgs) =>
          (imgs as HTMLImageElement[]).map((img) => ({ src: new URL(img.src).pathname, loaded: img.naturalWidth > 0 })),
        );
      expect(images.every(({ loaded }) => loaded)).toBe(true);
      expect(images.filter(({ src }) => src === '/images/screens/placeholder.svg')).toHaveLength(1);
      expect(await page.getByText(/free 7-day personalized meal plan/).count()).toBeGreaterThan(0);
    });
  });
});
