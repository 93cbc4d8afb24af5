import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { baseUrl, browserPerTest, createUser, openLoggedIn, storedSession, type TestUser, WAIT_MS, waitForPath } from './support/browser';
import { holdRequests } from './support/requests';
import { emailsTo, resetCodeOf, waitForEmail } from './support/outbox';

const poll = { timeout: WAIT_MS, interval: 50 };
const INVALID_CODE = 'This reset code is invalid or has expired. Please request a new one.';

let page: Page;
browserPerTest((session) => ({ page } = session));

const newPasswordInput = (p: Page) => p.getByLabel('New Password', { exact: true });
const confirmPasswordInput = (p: Page) => p.getByLabel('Confirm New Password', { exact: true });

async function logIn(p: Page, identifier: string, password: string) {
  await p.goto('/login');
  await p.getByRole('textbox', { name: 'Email or Username' }).fill(identifier);
  await p.getByLabel('Password', { exact: true }).fill(password);
  await p.getByRole('button', { name: 'Log In', exact: true }).click();
}

async function expectLoginRefused(p: Page, user: Pick<TestUser, 'username'>, password: string) {
  await logIn(p, user.username, password);
  await expect.poll(() => p.getByRole('alert').textContent(), poll).toBe('Invalid identifier or password');
  expect(new URL(p.url()).pathname).toBe('/login');
  expect(await storedSession(p)).toEqual({ jwt: null, userId: null });
}

async function expectGreenNotice(p: Page, text: string) {
  const notice = p.getByRole('status').filter({ hasText: text });
  await expect.poll(() => notice.textContent(), poll).toBe(text);
  const color = await notice.evaluate((el) => getComputedStyle(el).color);
  const [r, g, b] = (color.match(/\d+/g) ?? []).map(Number);
  expect(g, `notice colour ${color} should be green`).toBeGreaterThan(r);
  expect(g, `notice colour ${color} should be green`).toBeGreaterThan(b);
}

async function apiStatus(path: string, init: RequestInit = {}): Promise<number> {
  const response = await fetch(`${baseUrl()}${path}`, { ...init, signal: AbortSignal.timeout(WAIT_MS) });
  return response.status;
}

describe('Reset Password', () => {
  it('sends a code by email, resets with it, and only the new password logs in', async () => {
    const user = await createUser();
    const seen = emailsTo(user.email).length;

    await page.goto('/reset-password');
    await page.getByRole('heading', { level: 1, name: 'Reset Password' }).waitFor();
    await page.getByRole('textbox', { name: 'Email' }).fill(user.email);
    const { release, sent } = await holdRequests(page, '**/api/auth/forgot-password');
    await page.getByRole('button', { name: 'Send Reset Code' }).click();
    const sending = page.getByRole('button', { name: 'Sending...' });
    await sending.waitFor();
    expect(await sending.isDisabled()).toBe(true);
    const held = await sent(1);
    expect(held.map((r) => r.postDataJSON())).toEqual([{ email: user.email }]);
    release();

    await expectGreenNotice(page, `If an account exists for ${user.email}, a reset code is on its way. Check your inbox.`);
    const { code, link } = resetCodeOf(await waitForEmail(user.email, seen));
    expect(link.origin).toBe(baseUrl());
    expect(`${link.pathname}${link.search}`).toBe(`/reset-password?code=${code}`);

    await page.getByRole('textbox', { name: 'Reset Code' }).fill(code);
    const newPassword = `${user.password}-new`;
    await newPasswordInput(page).fill(newPassword);
    await confirmPasswordInput(page).fill(newPassword);
    const resetCall = page.waitForRequest((r) => r.url().endsWith('/api/auth/reset-password'));
    await page.getByRole('button', { name: 'Reset Password', exact: true }).click();
    expect((await resetCall).postDataJSON()).toEqual({ code, password: newPassword, passwordConfirmation: newPassword });

    await waitForPath(page, '/login');
    await expectGreenNotice(page, 'Your password has been reset. You can now log in with your new password.');

    await expectLoginRefused(page, user, user.password);

    await logIn(page, user.username, newPassword);
    await waitForPath(page, '/');
    await expect.poll(async () => (await storedSession(page)).userId, poll).toBe(String(user.id));
  });

  it("the email's link opens step 2 with the code filled in; a used code is refused with a clear message", async () => {
    const user = await createUser();
    const seen = emailsTo(user.email).length;
    const forgot = await fetch(`${baseUrl()}/api/auth/forgot-password`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: user.email }),
    });
    expect(forgot.status).toBe(200);
    const { code, link } = resetCodeOf(await waitForEmail(user.email, seen));

    await page.goto(`${link.pathname}${link.search}`);
    await page.getByRole('heading', { level: 1, name: 'Reset Password' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Reset Code' }).inputValue()).toBe(code);
    expect(await page.getByRole('textbox', { name: 'Email' }).count()).toBe(0);
    const newPassword = `${user.password}-via-link`;
    await newPasswordInput(page).fill(newPassword);
    await confirmPasswordInput(page).fill(newPassword);
    await page.getByRole('button', { name: 'Reset Password', exact: true }).click();
    await waitForPath(page, '/login');

    // The same link again: the server refuses the used code and the page says so.
    await page.goto(`${link.pathname}${link.search}`);
    await newPasswordInput(page).fill('another-pass-1');
    await confirmPasswordInput(page).fill('another-pass-1');
    await page.getByRole('button', { name: 'Reset Password', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), poll).toBe(INVALID_CODE);
    expect(new URL(page.url()).pathname).toBe('/reset-password');
  });
});

describe('Delete Account', () => {
  it('deletes the account after confirmation; the session ends and logging in fails', async () => {
    const user = await createUser();
    await openLoggedIn(page, user, '/delete-profile');
    await page.getByRole('heading', { level: 1, name: 'Delete Account' }).waitFor();
    await expect.poll(() => page.getByRole('main').innerText(), poll).toContain('permanently removes');

    // Cancel first: nothing happens.
    await page.getByRole('button', { name: 'Delete My Account' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Confirm Account Deletion' });
    await dialog.waitFor();
    await expect
      .poll(() => dialog.innerText(), poll)
      .toContain('Are you absolutely sure you want to delete your account? This action is irreversible.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await apiStatus('/api/users/me', { headers: { Authorization: `Bearer ${user.jwt}` } })).toBe(200);

    await page.getByRole('button', { name: 'Delete My Account' }).click();
    await dialog.waitFor();
    const { release, sent } = await holdRequests(page, '**/api/users-permissions/users/delete-account');
    await dialog.getByRole('button', { name: 'Yes, Delete' }).click();
    await dialog.getByText('Deleting...').waitFor();
    expect(await dialog.getByRole('button', { name: 'Yes, Delete' }).isDisabled()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Cancel' }).isDisabled()).toBe(true);
    const held = await sent(1);
    expect(held).toHaveLength(1);
    expect(held[0].method()).toBe('DELETE');
    expect(await held[0].headerValue('authorization')).toBe(`Bearer ${user.jwt}`);
    release();

    await waitForPath(page, '/login');
    await expectGreenNotice(page, 'Your account has been deleted successfully.');
    expect(await storedSession(page)).toEqual({ jwt: null, userId: null });

    // The old token is refused by the server, and the account is gone.
    expect(await apiStatus('/api/users/me', { headers: { Authorization: `Bearer ${user.jwt}` } })).toBe(401);
    await expectLoginRefused(page, user, user.password);
  });

  it('logged out: asks to log in and goes to /login after 2 seconds', async () => {
    const text = 'Please log in to delete your account. You will be redirected to the login page shortly.';
    // Both instants taken in the page as they happen (a DOM change, a history entry): the test's own
    // polling can notice either late on a busy machine.
    await page.addInitScript((shownText) => {
      const moments: { shownAt?: number; leftAt?: number } = {};
      Object.assign(window, { carnivoMoments: moments });
      new MutationObserver(() => {
        if (moments.shownAt === undefined && document.body?.innerText.includes(shownText)) moments.shownAt = performance.now();
      }).observe(document, { childList: true, subtree: true, characterData: true });
      for (const method of ['pushState', 'replaceState'] as const) {
        const original = history[method].bind(history);
        history[method] = (...args: Parameters<History['pushState']>) => {
          original(...args);
          if (moments.leftAt === undefined && window.location.pathname === '/login') moments.leftAt = performance.now();
        };
      }
    }, text);
    await page.goto('/delete-profile');
    await page.getByText(text).waitFor();
    expect(await page.getByRole('button', { name: 'Delete My Account' }).count()).toBe(0);

    await page.waitForURL((url) => url.pathname === '/login' && url.search === '?from=%2Fdelete-profile', {
      timeout: WAIT_MS,
      waitUntil: 'commit',
    });
    const { shownAt, leftAt } = await page.evaluate(
      () => (window as unknown as { carnivoMoments: { shownAt: number; leftAt: number } }).carnivoMoments,
    );
    const elapsed = leftAt - shownAt;
    expect(elapsed).toBeGreaterThanOrEqual(1_700);
    expect(elapsed).toBeLessThan(4_000);
    await page.getByRole('heading', { level: 1, name: 'Log In' }).waitFor();
  });

  it('the server refuses deletion without a token', async () => {
    expect(await apiStatus('/api/users-permissions/users/delete-account', { method: 'DELETE' })).toBe(401);
  });
});
