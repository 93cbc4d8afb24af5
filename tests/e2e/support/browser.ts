import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const SCREENSHOT_DIR = path.join(repoRoot, 'test-results', 'screenshots');

/** Debian's Chromium; playwright-core never downloads a browser here. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Bound for every single wait on the page (locators, navigation, expect-style polling). */
export const WAIT_MS = 15_000;

export const DESKTOP = { width: 1280, height: 800 } as const;
export const MOBILE = { width: 375, height: 812 } as const;

export function baseUrl(): string {
  return inject('baseUrl');
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true, timeout: 60_000 });
}

export async function closeBrowser(browser: Browser | undefined): Promise<void> {
  await browser?.close();
}

/** A fresh context (own localStorage and cookies) on the app's origin, desktop-sized unless told. */
export async function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: DESKTOP, ...options });
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(WAIT_MS);
  return context;
}

export type TestUser = { username: string; email: string; password: string; jwt: string; id: number };

/** A short, unique suffix (Strapi usernames need >= 3 characters; this keeps them readable). */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

export function newCredentials(): Omit<TestUser, 'jwt' | 'id'> {
  const suffix = uniqueSuffix();
  return { username: `e2e_${suffix}`, email: `e2e_${suffix}@example.test`, password: `Pw-${randomBytes(6).toString('hex')}` };
}

/** Registers a unique user through the API (POST /api/auth/local/register). */
export async function createUser(): Promise<TestUser> {
  const credentials = newCredentials();
  const response = await fetch(`${baseUrl()}/api/auth/local/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(credentials),
    signal: AbortSignal.timeout(WAIT_MS),
  });
  const body = (await response.json()) as { jwt?: string; user?: { id: number }; error?: { message?: string } };
  if (response.status !== 200 || !body.jwt || !body.user) {
    throw new Error(`register ${credentials.username} failed: HTTP ${response.status} ${JSON.stringify(body)}`);
  }
  return { ...credentials, jwt: body.jwt, id: body.user.id };
}

/**
 * Stores a session the way the SPA does (localStorage jwt + userId) on the app's origin, then
 * opens `path` with a full load so the app starts logged in. Shared by every page of the context.
 */
export async function openLoggedIn(page: Page, session: { jwt: string; id: number | string }, path = '/'): Promise<void> {
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  await page.evaluate(
    ({ jwt, id }) => {
      window.localStorage.setItem('jwt', jwt);
      window.localStorage.setItem('userId', String(id));
    },
    { jwt: session.jwt, id: session.id },
  );
  await page.goto(path, { waitUntil: 'domcontentloaded' });
}

export async function storedSession(page: Page): Promise<{ jwt: string | null; userId: string | null }> {
  return page.evaluate(() => ({ jwt: window.localStorage.getItem('jwt'), userId: window.localStorage.getItem('userId') }));
}

export function screenshotsEnabled(): boolean {
  return process.env.E2E_SCREENSHOTS === '1';
}

/** Writes test-results/screenshots/<name>.png when E2E_SCREENSHOTS=1; returns the path or null. */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<string | null> {
  if (!screenshotsEnabled()) return null;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name.replace(/[^a-zA-Z0-9._-]+/g, '-')}.png`);
  await page.screenshot({ path: file, fullPage, animations: 'disabled' });
  return file;
}

/** Polls until check() returns true; fails with the message after timeoutMs. */
export async function waitFor(check: () => Promise<boolean> | boolean, message: string, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${message}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Resolves when the page's path (and optionally search) is the expected one. */
export async function waitForPath(page: Page, pathname: string, search?: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === pathname && (search === undefined || url.search === search), {
    timeout: WAIT_MS,
    waitUntil: 'commit',
  });
}

export type BrowserSession = { browser: Browser; context: BrowserContext; page: Page };

/**
 * One Chromium per test file and a fresh context and page per test; `use` receives each
 * new session so the file can keep plain `browser`, `context` and `page` variables.
 */
export function browserPerTest(use: (session: BrowserSession) => void): void {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await closeBrowser(browser);
  });
  beforeEach(async () => {
    if (!browser) throw new Error('Chromium did not start');
    context = await newContext(browser);
    use({ browser, context, page: await context.newPage() });
  });
  afterEach(async () => {
    await context?.close();
  });
}

/**
 * Waits until React has taken a prerendered page over (its main heading is a node React owns).
 * Before that, a click on a link is a plain page load rather than a move inside the app.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const heading = document.querySelector('main h1');
      return heading !== null && Object.keys(heading).some((key) => key.startsWith('__reactFiber'));
    },
    undefined,
    { timeout: WAIT_MS },
  );
}
