import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The computed font-family of a page's body. */
const bodyFont = (page: Page) => page.evaluate(() => getComputedStyle(document.body).fontFamily);

/**
 * A page the server renders itself (a receipt, the unsubscribe answer) has the site's look: the
 * header's logo (loaded) and name linking home, the site's typography (the same body font as the
 * home page, not the browser's default), and a link back to the site that works.
 */
export async function expectSiteLook(page: Page, origin: string): Promise<void> {
  const brand = page.locator('header.site-header a.brand');
  expect(await brand.getAttribute('href')).toBe('/');
  expect(await brand.innerText()).toBe('Carnivo');
  const logo = brand.locator('img');
  await logo.waitFor();
  expect(await logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  expect(await logo.evaluate((image) => image.getBoundingClientRect().width)).toBe(32);

  const font = await bodyFont(page);
  const home = await page.context().newPage();
  try {
    await home.goto(`${origin}/`, { waitUntil: 'load' });
    expect(font).toBe(await bodyFont(home));
    expect(font).toContain('system-ui');
  } finally {
    await home.close();
  }

  await page.getByRole('link', { name: 'Back to Carnivo' }).click();
  await page.waitForURL(`${origin}/`);
}
