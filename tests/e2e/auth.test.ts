import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Request } from 'playwright-core';
import {
  browserPerTest,
  createUser,
  newCredentials,
  openLoggedIn,
  storedSession,
  WAIT_MS,
  waitForHydration,
  waitForPath,
} from './support/browser';
import { holdRequests } from './support/requests';

const poll = { timeout: WAIT_MS, interval: 50 };

let context: BrowserContext;
let page: Page;
browserPerTest((session) => ({ context, page } = session));

const mainNav = (p: Page) => p.getByRole('navigation', { name: 'Main' });

async function expectLoggedInNav(p: Page) {
  const nav = mainNav(p);
  await nav.getByRole('button', { name: 'Log Out' }).waitFor();
  await nav.getByRole('link', { name: 'Profile', exact: true }).waitFor();
  expect(await nav.getByRole('link', { name: 'Log In', exact: true }).count()).toBe(0);
  expect(await nav.getByRole('link', { name: 'Sign Up', exact: true }).count()).toBe(0);
}

async function expectLoggedOutNav(p: Page) {
  const nav = mainNav(p);
  await nav.getByRole('link', { name: 'Log In', exact: true }).waitFor();
  await nav.getByRole('link', { name: 'Sign Up', exact: true }).waitFor();
  expect(await nav.getByRole('button', { name: 'Log Out' }).count()).toBe(0);
  expect(await nav.getByRole('link', { name: 'Profile', exact: true }).count()).toBe(0);
}

async function expectProfileOf(p: Page, username: string) {
  await waitForPath(p, '/profile');
  await p.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
  await expect.poll(() => p.getByRole('region', { name: 'Information' }).innerText(), poll).toContain(username);
}

/** Every request the page sends to the auth API. */
function recordAuthCalls(p: Page): Request[] {
  const calls: Request[] = [];
  p.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/auth/')) calls.push(request);
  });
  return calls;
}

async function fillSignUp(p: Page, values: { username: string; email: string; password: string }) {
  await p.getByRole('textbox', { name: 'Username' }).fill(values.username);
  await p.getByRole('textbox', { name: 'Email' }).fill(values.email);
  await p.getByLabel('Password', { exact: true }).fill(values.password);
}

async function fillLogIn(p: Page, identifier: string, password: string) {
  await p.getByRole('textbox', { name: 'Email or Username' }).fill(identifier);
  await p.getByLabel('Password', { exact: true }).fill(password);
}

describe('Sign Up page', () => {
  it('has its title, fields, social alerts and links', async () => {
    await page.goto('/signup');
    await page.getByRole('heading', { level: 1, name: 'Sign Up' }).waitFor();
    await expect.poll(() => page.title(), poll).toBe('Carnivo - Sign Up');

    const password = page.getByLabel('Password', { exact: true });
    await page.getByRole('textbox', { name: 'Username' }).waitFor();
    await page.getByRole('textbox', { name: 'Email' }).waitFor();
    expect(await password.getAttribute('type')).toBe('password');
    // The prerendered button shows before the app runs: the toggle is the app's.
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await password.getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    expect(await password.getAttribute('type')).toBe('password');

    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: 'Google', exact: true }).click();
    await page.getByRole('button', { name: 'Facebook', exact: true }).click();
    await expect.poll(() => alerts, poll).toEqual(['alert: Google sign-up not implemented', 'alert: Facebook sign-up not implemented']);

    const main = page.getByRole('main');
    expect(await main.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
    expect(await main.getByRole('link', { name: 'Log In', exact: true }).getAttribute('href')).toBe('/login');
    expect(await mainNav(page).getByRole('link', { name: 'Sign Up' }).getAttribute('aria-current')).toBe('page');
  });

  it('shows the validation messages and sends nothing', async () => {
    const calls = recordAuthCalls(page);
    await page.goto('/signup');
    const submit = page.getByRole('button', { name: 'Sign Up', exact: true });
    const alert = page.getByRole('alert');

    await submit.click();
    await expect.poll(() => alert.textContent(), poll).toBe('Please fill in all required fields.');

    // Blank after trimming counts as missing.
    await fillSignUp(page, { username: '   ', email: 'someone@example.test', password: 'secret123' });
    await submit.click();
    await expect.poll(() => alert.textContent(), poll).toBe('Please fill in all required fields.');

    await fillSignUp(page, { username: 'someone', email: 'not-an-email', password: 'secret123' });
    await submit.click();
    await expect.poll(() => alert.textContent(), poll).toBe('Please enter a valid email address.');

    expect(calls.map((r) => `${r.method()} ${r.url()}`)).toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/signup');
    expect(await storedSession(page)).toEqual({ jwt: null, userId: null });
  });

  it("shows the server's message when the username is taken", async () => {
    const existing = await createUser();
    await page.goto('/signup');
    const fresh = newCredentials();
    await fillSignUp(page, { username: existing.username, email: fresh.email, password: fresh.password });
    const response = page.waitForResponse((r) => r.url().endsWith('/api/auth/local/register'));
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    const answered = await response;
    expect(answered.status()).toBe(400);
    const serverMessage = ((await answered.json()) as { error: { message: string } }).error.message;
    expect(serverMessage).toBe('Username already taken');

    await expect.poll(() => page.getByRole('alert').textContent(), poll).toBe(serverMessage);
    await page.getByRole('button', { name: 'Sign Up', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/signup');
    expect(await storedSession(page)).toEqual({ jwt: null, userId: null });
  });
});

describe('Log In page', () => {
  it('has its title, fields, social buttons and links', async () => {
    await page.goto('/login');
    await page.getByRole('heading', { level: 1, name: 'Log In' }).waitFor();
    await expect.poll(() => page.title(), poll).toBe('Carnivo - Log In');

    await page.getByRole('textbox', { name: 'Email or Username' }).waitFor();
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('password');
    const remember = page.getByRole('checkbox', { name: 'Remember Me' });
    expect(await remember.isChecked()).toBe(false);
    await remember.check();
    expect(await remember.isChecked()).toBe(true);
    // Enabled once the app has hydrated and read the social config: wait for it, as for the title.
    for (const name of ['Continue with Google', 'Continue with Apple', 'Continue with Facebook']) {
      await expect.poll(() => page.getByRole('button', { name }).isEnabled(), { ...poll, message: name }).toBe(true);
    }
    const main = page.getByRole('main');
    expect(await main.getByRole('link', { name: 'Reset Password' }).getAttribute('href')).toBe('/reset-password');
    expect(await main.getByRole('link', { name: 'Sign Up', exact: true }).getAttribute('href')).toBe('/signup');
    expect(await main.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
    expect(await mainNav(page).getByRole('link', { name: 'Log In' }).getAttribute('aria-current')).toBe('page');
  });

  it("shows 'Invalid identifier or password' for a wrong password", async () => {
    const user = await createUser();
    await page.goto('/login');
    await fillLogIn(page, user.username, `${user.password}-wrong`);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), poll).toBe('Invalid identifier or password');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await storedSession(page)).toEqual({ jwt: null, userId: null });
    await expectLoggedOutNav(page);
  });
});

describe('session flows', () => {
  it('sign up lands on /profile, then log out', async () => {
    const user = newCredentials();
    await page.goto('/signup');
    await fillSignUp(page, user);
    const { release, sent } = await holdRequests(page, '**/api/auth/local/register');
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();

    const busy = page.getByRole('button', { name: 'Signing Up...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    const held = await sent(1);
    expect(held).toHaveLength(1);
    expect(held[0].postDataJSON()).toEqual({ username: user.username, email: user.email, password: user.password });
    release();

    await expectProfileOf(page, user.username);
    await expectLoggedInNav(page);
    expect(await mainNav(page).getByRole('link', { name: 'Profile' }).getAttribute('aria-current')).toBe('page');
    const session = await storedSession(page);
    expect(session.jwt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(session.userId).toMatch(/^\d+$/);

    await mainNav(page).getByRole('button', { name: 'Log Out' }).click();
    await expectLoggedOutNav(page);
    expect(await storedSession(page)).toEqual({ jwt: null, userId: null });
    // Logging out on /profile leaves the logged-in-only page.
    await waitForPath(page, '/login');
  });

  it('logs in with the username (default return route /)', async () => {
    const user = await createUser();
    await page.goto('/login');
    await fillLogIn(page, user.username, user.password);
    const { release, sent } = await holdRequests(page, '**/api/auth/local');
    await page.getByRole('button', { name: 'Log In', exact: true }).click();

    const busy = page.getByRole('button', { name: 'Logging In...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    const held = await sent(1);
    expect(held).toHaveLength(1);
    expect(held[0].postDataJSON()).toEqual({ identifier: user.username, password: user.password });
    release();

    await waitForPath(page, '/');
    await expectLoggedInNav(page);
    expect(await storedSession(page)).toEqual({ jwt: expect.any(String), userId: String(user.id) });

    await mainNav(page).getByRole('link', { name: 'Profile' }).click();
    await expectProfileOf(page, user.username);
  });

  it('logs in with the email', async () => {
    const user = await createUser();
    await page.goto('/login');
    await fillLogIn(page, user.email, user.password);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await waitForPath(page, '/');
    await expectLoggedInNav(page);
    expect((await storedSession(page)).userId).toBe(String(user.id));
  });

  it('/profile logged out goes to /login (replacing history) and back to /profile after login', async () => {
    const user = await createUser();
    await page.goto('/');
    await expectLoggedOutNav(page);
    await page.goto('/profile');
    await waitForPath(page, '/login', '?from=%2Fprofile');
    await page.getByRole('heading', { level: 1, name: 'Log In' }).waitFor();

    // The /profile entry was replaced: going back reaches /, not /profile (which would bounce here again).
    await page.goBack();
    await waitForPath(page, '/');
    await page.goForward();
    await waitForPath(page, '/login', '?from=%2Fprofile');

    await fillLogIn(page, user.email, user.password);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await expectProfileOf(page, user.username);
  });

  it('an unknown path answers 404 (noindex) and lands on /', async () => {
    const answer = await page.goto('/no/such/page?x=1');
    expect(answer?.status()).toBe(404);
    expect(answer?.headers()['x-robots-tag']).toBe('noindex');
    await waitForPath(page, '/');
    await expect.poll(() => mainNav(page).getByRole('link', { name: 'Home' }).getAttribute('aria-current'), poll).toBe('page');
    await expect.poll(() => page.title(), poll).toBe('Carnivo - Carnivore & Ketovore Diet App');
  });

  it('logging out in one tab logs out the other', async () => {
    const user = await createUser();
    await openLoggedIn(page, user, '/profile');
    await expectProfileOf(page, user.username);

    const other = await context.newPage();
    await other.goto('/');
    await expectLoggedInNav(other);

    await mainNav(other).getByRole('button', { name: 'Log Out' }).click();
    await expectLoggedOutNav(other);

    // The first tab hears the storage event: logged out, and off the logged-in-only page.
    await waitForPath(page, '/login');
    await expectLoggedOutNav(page);
    expect(await storedSession(page)).toEqual({ jwt: null, userId: null });
  });

  it('a refused token on /profile logs out and shows the session-expired notice on /login', async () => {
    await openLoggedIn(page, { jwt: 'garbage.not-a.jwt', id: 1 }, '/');
    await expectLoggedInNav(page);

    const me = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/users/me');
    await page.goto('/profile');
    expect((await me).status()).toBe(401);

    await waitForPath(page, '/login');
    const notice = page.getByRole('status');
    await expect.poll(() => notice.textContent(), poll).toBe('Your session has expired. Please log in again.');
    const color = await notice.evaluate((el) => getComputedStyle(el).color);
    const [r, g, b] = (color.match(/\d+/g) ?? []).map(Number);
    expect(g, `notice colour ${color} should be green`).toBeGreaterThan(r);
    expect(g, `notice colour ${color} should be green`).toBeGreaterThan(b);
    expect(await page.getByRole('alert').count()).toBe(0);
    await expectLoggedOutNav(page);
    expect(await storedSession(page)).toEqual({ jwt: null, userId: null });
  });
});
