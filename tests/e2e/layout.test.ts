import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
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
  waitForPath,
  type TestUser,
} from './support/browser';

const poll = { timeout: WAIT_MS, interval: 50 };

let browser: Browser;
let user: TestUser;

beforeAll(async () => {
  browser = await launchBrowser();
  user = await createUser();
});

afterAll(async () => {
  await closeBrowser(browser);
});

const mainNav = (p: Page) => p.getByRole('navigation', { name: 'Main' });

/** Waits until the page has loaded its fonts and images, so a screenshot shows the finished page. */
async function settled(p: Page) {
  await p.waitForLoadState('load');
  await p.evaluate(() => document.fonts.ready.then(() => undefined));
}

const publicPages: Array<{ path: string; heading: string | RegExp; title: string }> = [
  { path: '/', heading: /./, title: 'Carnivo - Carnivore & Ketovore Diet App' },
  { path: '/signup', heading: 'Sign Up', title: 'Carnivo - Sign Up' },
  { path: '/login', heading: 'Log In', title: 'Carnivo - Log In' },
  { path: '/email-confirmation', heading: /./, title: 'Carnivo - Email Confirmed' },
];

describe.each([
  { label: 'mobile', viewport: MOBILE },
  { label: 'desktop', viewport: DESKTOP },
])('pages at $label size ($viewport.width x $viewport.height)', ({ label, viewport }) => {
  it.each(publicPages)('$path renders with its title', async ({ path, heading, title }) => {
    const context = await newContext(browser, { viewport });
    try {
      const page = await context.newPage();
      await page.goto(path);
      await waitForPath(page, path);
      await page.getByRole('heading', { level: 1, name: heading }).first().waitFor();
      await expect.poll(() => page.title(), poll).toBe(title);
      await page.getByRole('link', { name: 'Carnivo' }).first().waitFor();
      await settled(page);
      await screenshot(page, `${label}-${path === '/' ? 'home' : path.slice(1)}`);
    } finally {
      await context.close();
    }
  });

  it('/profile renders for a logged-in user', async () => {
    const context = await newContext(browser, { viewport });
    try {
      const page = await context.newPage();
      await openLoggedIn(page, user, '/profile');
      await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
      await expect.poll(() => page.getByRole('region', { name: 'Information' }).innerText(), poll).toContain(user.username);
      await expect.poll(() => page.title(), poll).toBe('Carnivo - Profile');
      await settled(page);
      await screenshot(page, `${label}-profile`);
    } finally {
      await context.close();
    }
  });
});

describe('Email Confirmed', () => {
  it("sends its button to /login logged out ('Log In Now') and to /profile logged in", async () => {
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await page.goto('/email-confirmation');
      const main = page.getByRole('main');
      await main.getByRole('link', { name: 'Log In Now' }).waitFor();
      expect(await main.getByRole('link', { name: 'Log In Now' }).getAttribute('href')).toBe('/login');
      expect(await main.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');

      await openLoggedIn(page, user, '/email-confirmation');
      // The spec names only the logged-out label; the logged-in button is the page's first link.
      const button = main.getByRole('link').first();
      await expect.poll(() => button.getAttribute('href'), poll).toBe('/profile');
      await button.click();
      await waitForPath(page, '/profile');
      await expect.poll(() => page.getByRole('region', { name: 'Information' }).innerText(), poll).toContain(user.username);
    } finally {
      await context.close();
    }
  });
});

describe('navigation menu', () => {
  it('switches between the toggle and the inline menu at 1100 px', async () => {
    const context = await newContext(browser, { viewport: { width: 1099, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto('/');
      await page.getByRole('button', { name: 'Open menu' }).waitFor({ state: 'visible' });
      expect(await mainNav(page).isVisible()).toBe(false);
      await page.setViewportSize({ width: 1100, height: 800 });
      await page.getByRole('button', { name: 'Open menu' }).waitFor({ state: 'hidden' });
      await mainNav(page).getByRole('link', { name: 'Home' }).waitFor({ state: 'visible' });
    } finally {
      await context.close();
    }
  });

  it('is inline at 1280 px wide, with no toggle', async () => {
    const context = await newContext(browser, { viewport: DESKTOP });
    try {
      const page = await context.newPage();
      await page.goto('/');
      await mainNav(page).getByRole('link', { name: 'Home' }).waitFor({ state: 'visible' });
      expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);
      const links = await mainNav(page).getByRole('link').allInnerTexts();
      expect(links.map((t) => t.trim())).toEqual([
        'Home',
        'About Us',
        'Company Details',
        'Privacy Policy',
        'Terms',
        'Contact',
        'Refund Policy',
        'Delete Account',
        'Log In',
        'Sign Up',
      ]);
    } finally {
      await context.close();
    }
  });

  it('slides in from the toggle at 375 px wide, and Log Out closes it', async () => {
    const context = await newContext(browser, { viewport: MOBILE });
    try {
      const page = await context.newPage();
      await openLoggedIn(page, user, '/');
      const toggle = page.getByRole('button', { name: 'Open menu' });
      await toggle.waitFor({ state: 'visible' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      const home = mainNav(page).getByRole('link', { name: 'Home' });
      expect(await home.isVisible()).toBe(false);

      await toggle.click();
      const close = page.getByRole('button', { name: 'Close menu' });
      expect(await close.getAttribute('aria-expanded')).toBe('true');
      await home.waitFor({ state: 'visible' });
      await mainNav(page).getByRole('link', { name: 'Profile' }).waitFor({ state: 'visible' });
      // Let the slide-in transition finish before checking where the panel sits.
      await page.waitForFunction(() => document.getElementById('main-navigation')?.getAnimations().length === 0, undefined, {
        timeout: WAIT_MS,
      });
      const panel = await mainNav(page).boundingBox();
      expect(panel, 'the open panel is on screen').not.toBeNull();
      expect(panel!.x).toBeGreaterThanOrEqual(0);
      expect(panel!.x + panel!.width).toBeLessThanOrEqual(MOBILE.width + 1);
      await screenshot(page, 'mobile-menu-open', { fullPage: false });

      await mainNav(page).getByRole('button', { name: 'Log Out' }).click();
      await page.getByRole('button', { name: 'Open menu' }).waitFor({ state: 'visible' });
      expect(await page.getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded')).toBe('false');
      await home.waitFor({ state: 'hidden' });
      expect(await page.evaluate(() => window.localStorage.getItem('jwt'))).toBeNull();
      // Logged out now: the closed panel holds Log In and Sign Up instead of Profile and Log Out.
      const hiddenNav = page.getByRole('navigation', { name: 'Main', includeHidden: true });
      await hiddenNav.getByRole('link', { name: 'Log In', includeHidden: true }).waitFor({ state: 'attached' });
      expect(await hiddenNav.getByRole('button', { name: 'Log Out', includeHidden: true }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
