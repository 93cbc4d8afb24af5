import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { holdRequests } from './support/requests';
import {
  DESKTOP,
  MOBILE,
  WAIT_MS,
  browserPerTest,
  createUser,
  waitForHydration,
  waitForPath,
  type BrowserSession,
} from './support/browser';

// Issue 21: a cold /profile paints the member's profile from an early GET /api/users/me before the
// app's code has loaded (src/entry-profile-shell.ts), and the app then takes the page over without
// a visible change, asking for the profile no second time.

let session: BrowserSession;
browserPerTest((next) => {
  session = next;
});

const poll = { timeout: WAIT_MS, interval: 50 };
const APP_ENTRY = '**/assets/index-*.js';

/** Counts the profile requests the page sends. */
function countProfileRequests(page: Page): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/users/me') count += 1;
  });
  return () => count;
}

/** Stores a session on the origin without loading the app (robots.txt is no page of it). */
async function storeSession(page: Page, member: { jwt: string; id: number }): Promise<void> {
  await page.goto('/robots.txt');
  await page.evaluate(({ jwt, id }) => {
    window.localStorage.setItem('jwt', jwt);
    window.localStorage.setItem('userId', String(id));
  }, member);
}

type LargestPaint = { at: number; inRoot: boolean; appAskedAt: number | null };

/** The largest contentful paint so far: when, whether in the page's root, and when the app's code was asked for. */
function largestPaint(page: Page): Promise<LargestPaint> {
  return page.evaluate(
    () =>
      new Promise<LargestPaint>((resolve) => {
        new PerformanceObserver((list, observer) => {
          observer.disconnect();
          const entry = list.getEntries().at(-1) as PerformanceEntry & { element: Element | null };
          const app = performance.getEntriesByType('resource').find((resource) => /\/assets\/index-[\w-]+\.js$/.test(resource.name));
          resolve({ at: entry.startTime, inRoot: Boolean(entry.element?.closest('#root')), appAskedAt: app?.startTime ?? null });
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
}

type Box = { path: string; tag: string; box: number[]; text: string | null };

/**
 * Every element in the root with its place in the tree, its box and, for a leaf, its text. A box
 * that holds other elements has no height here: the app's page goes on below the shell's (the
 * cards after the Information section), so the boxes around them grow.
 */
function boxes(page: Page): Promise<Box[]> {
  return page.evaluate(() => {
    const root = document.getElementById('root')!;
    const pathOf = (element: Element): string => {
      const parent = element.parentElement!;
      const here = `${element.localName}[${[...parent.children].indexOf(element)}]`;
      return parent === root ? here : `${pathOf(parent)}/${here}`;
    };
    return [...root.querySelectorAll('*')].map((element) => {
      const rect = element.getBoundingClientRect();
      const leaf = element.children.length === 0;
      return {
        path: pathOf(element),
        tag: element.localName,
        box: [rect.x, rect.y, rect.width, ...(leaf ? [rect.height] : [])].map(Math.round),
        text: leaf ? element.textContent : null,
      };
    });
  });
}

const viewports = [
  ['phone', MOBILE],
  ['desktop', DESKTOP],
] as const;

describe('the profile shell on a cold load', () => {
  it.each(viewports)(
    '%s: the member sees their profile before the app loads, then the app in its place, box for box, from one profile request',
    async (_name, viewport) => {
      const { page } = session;
      await page.setViewportSize(viewport);
      const member = await createUser();
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      const profileRequests = countProfileRequests(page);
      await storeSession(page, member);
      const entry = await holdRequests(page, APP_ENTRY);

      await page.goto('/profile', { waitUntil: 'commit' });
      const details = page.locator('#root .profile-card[aria-label="Information"] dl.details');
      await expect.poll(() => details.isVisible(), poll).toBe(true);
      // Painted from the profile while the app's code cannot run.
      expect(await details.textContent()).toContain(member.email);
      const shellPaint = await largestPaint(page);
      expect(shellPaint.inRoot).toBe(true);
      expect(await page.locator('#root .profile-picture__initial').textContent()).toBe(member.username.slice(0, 1).toUpperCase());
      const shell = await boxes(page);
      // Nothing in it works yet: it takes no focus and no click.
      expect(await page.locator('#root > [inert]').count()).toBe(3);

      // It asks for the app only after painting.
      await entry.sent(1);
      entry.release();
      await waitForHydration(page);
      await expect.poll(() => page.locator('#root [inert]').count(), poll).toBe(0);
      const app = new Map((await boxes(page)).map((box) => [box.path, box]));
      const changed = shell.filter((box) => JSON.stringify(app.get(box.path)) !== JSON.stringify(box));
      expect(changed.map((box) => ({ shell: box, app: app.get(box.path) }))).toEqual([]);
      // The shell's paint stays the largest: the app painted nothing larger; and it came before the app was asked for.
      const finalPaint = await largestPaint(page);
      expect(finalPaint.at).toBe(shellPaint.at);
      expect(finalPaint.appAskedAt).toBeGreaterThan(shellPaint.at);

      expect(profileRequests()).toBe(1);
      expect(errors).toEqual([]);
      // The app works: the Information section opens for editing.
      await page.getByRole('button', { name: 'Edit Profile' }).click();
      await expect.poll(() => page.getByLabel('Username').inputValue(), poll).toBe(member.username);
    },
    60_000,
  );

  it('a tab named in the URL: the page around it first, then the tab from the app', async () => {
    const { page } = session;
    const member = await createUser();
    await storeSession(page, member);
    const entry = await holdRequests(page, APP_ENTRY);
    await page.goto('/profile?tab=diet', { waitUntil: 'commit' });
    await expect.poll(() => page.locator('#root .profile__greeting strong').textContent(), poll).toBe(member.username);
    expect(await page.locator('#root .profile__mobile-title').textContent()).toBe('Diet');
    expect(await page.locator('#root .profile__content > *').count()).toBe(1);
    entry.release();
    await expect.poll(() => page.getByRole('region', { name: 'Diet' }).isVisible(), poll).toBe(true);
  });

  it('a visitor is sent to log in, as before, and sees no profile on the way', async () => {
    const { page } = session;
    const profileRequests = countProfileRequests(page);
    await page.goto('/profile');
    await waitForPath(page, '/login');
    expect(await page.locator('.profile').count()).toBe(0);
    expect(profileRequests()).toBe(0);
  });

  it('a session the server refuses paints nothing and ends as it always did: logged out, on the log-in page', async () => {
    const { page } = session;
    const member = await createUser();
    await storeSession(page, { ...member, jwt: `${member.jwt}x` });
    const entry = await holdRequests(page, APP_ENTRY);
    await page.goto('/profile', { waitUntil: 'commit' });
    // The refused early request starts the app at once.
    await entry.sent(1);
    expect(await page.locator('#root').innerHTML()).toBe('');
    entry.release();
    await waitForPath(page, '/login');
    await expect.poll(() => page.evaluate(() => window.localStorage.getItem('jwt')), poll).toBeNull();
  });

  it('a slow profile answer does not hold the app back: it starts after 2.5 s and shows the answer when it comes', async () => {
    const { page } = session;
    const member = await createUser();
    await storeSession(page, member);
    const profile = await holdRequests(page, '**/api/users/me*');
    await page.goto('/profile', { waitUntil: 'commit' });
    await profile.sent(1);
    const started = Date.now();
    await page.waitForRequest((request) => /\/assets\/index-[\w-]+\.js$/.test(request.url()), { timeout: WAIT_MS });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    profile.release();
    await expect.poll(() => page.getByRole('region', { name: 'Information' }).textContent(), poll).toContain(member.email);
    expect(profile.held).toHaveLength(1);
  });
});
