import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { baseUrl, browserPerTest, storedSession, uniqueSuffix, WAIT_MS, waitForPath } from './support/browser';

// Social sign-in in Chromium. The e2e server has Facebook set up against a local double of
// Facebook's login dialog and Graph API (tests/e2e/global-setup.ts); Google and Apple are not set up.

const poll = { timeout: WAIT_MS, interval: 50 };
const NEW_ACCOUNT_MS = 60_000;

let context: BrowserContext;
let page: Page;
browserPerTest((session) => ({ context, page } = session));

/** The person the Facebook double's dialog signs in (a cookie of the double's origin). */
async function loggedInToFacebookAs(c: BrowserContext, id: string, { deny = false } = {}) {
  const url = inject('facebookOrigin');
  await c.addCookies([{ name: 'fb_user', value: id, url }, ...(deny ? [{ name: 'fb_deny', value: '1', url }] : [])]);
}

async function expectGreenNotice(p: Page, text: string) {
  await waitForPath(p, '/login');
  const notice = p.getByRole('status').filter({ hasText: text });
  await expect.poll(() => notice.textContent(), poll).toBe(text);
  const color = await notice.evaluate((el) => getComputedStyle(el).color);
  const [r, g, b] = (color.match(/\d+/g) ?? []).map(Number);
  expect(g, `notice colour ${color} should be green`).toBeGreaterThan(r);
  expect(g, `notice colour ${color} should be green`).toBeGreaterThan(b);
}

const socialButtons = (p: Page) =>
  ['Continue with Google', 'Continue with Apple', 'Continue with Facebook'].map((name) => p.getByRole('button', { name }));

/** A Facebook account created through the API (as an earlier visit would have): its user id. */
async function existingFacebookAccount(id: string): Promise<number> {
  const start = await fetch(`${baseUrl()}/api/connect/facebook`, { redirect: 'manual', signal: AbortSignal.timeout(WAIT_MS) });
  const cookie = start.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  // Facebook hands back the state of the dialog URL; the server checks it against the cookie.
  const state = new URL(start.headers.get('location') ?? '').searchParams.get('state') ?? '';
  const res = await fetch(`${baseUrl()}/api/connect/facebook/callback?code=fb-ok-${id}&state=${encodeURIComponent(state)}`, {
    headers: { 'Content-Type': 'application/json', Cookie: cookie },
    signal: AbortSignal.timeout(WAIT_MS),
  });
  const body = (await res.json()) as { user?: { id: number } };
  if (res.status !== 200 || !body.user)
    throw new Error(`Facebook sign-in through the API failed: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body.user.id;
}

describe('social login callback screen (/auth/facebook/callback)', () => {
  it("goes to /login with the provider's error parameter as a green notice", async () => {
    await page.goto('/auth/facebook/callback?error=access_denied');
    await expectGreenNotice(page, 'access_denied');
    expect(await storedSession(page)).toEqual({ jwt: null, userId: null });
  });

  it('goes to /login with "Invalid social login response" when there is no code', async () => {
    await page.goto('/auth/facebook/callback');
    await expectGreenNotice(page, 'Invalid social login response');
  });

  it("refuses a code this browser did not ask Facebook for (login CSRF), with the server's message", async () => {
    // The attacker's own code and state, but this browser never started a Facebook sign-in (no cookie).
    await page.goto(`/auth/facebook/callback?code=fb-ok-${uniqueSuffix()}&state=attackers-state`);
    await expectGreenNotice(
      page,
      'Facebook sign-in failed: the sign-in was not started from this browser, or it took too long. Please try again.',
    );
    expect(await storedSession(page)).toEqual({ jwt: null, userId: null });
  });
});

describe('Continue with Facebook (through the local Facebook double)', () => {
  it('signs a new person up and lands on /bmi; Skip for now leads to /profile', async () => {
    const id = uniqueSuffix();
    await loggedInToFacebookAs(context, id);
    await page.goto('/login');

    const dialog = page.waitForRequest((r) => r.url().startsWith(`${inject('facebookOrigin')}/v19.0/dialog/oauth`));
    const callback = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/connect/facebook/callback');
    await page.getByRole('button', { name: 'Continue with Facebook' }).click();
    const dialogUrl = new URL((await dialog).url());
    expect(dialogUrl.searchParams.get('redirect_uri')).toBe(`${baseUrl()}/auth/facebook/callback`);
    expect(dialogUrl.searchParams.get('scope')).toBe('email');
    expect((await callback).status()).toBe(200);

    await waitForPath(page, '/bmi');
    await page.getByRole('heading', { name: 'Welcome to Carnivo' }).waitFor();
    for (const label of ['Height (cm)', 'Weight (kg)', 'Gender', 'Date of Birth']) {
      expect(await page.getByLabel(label, { exact: true }).count(), label).toBe(1);
    }
    await page.getByRole('button', { name: 'Save and continue' }).waitFor();

    const session = await storedSession(page);
    expect(session.jwt).toEqual(expect.any(String));
    const me = await fetch(`${baseUrl()}/api/users/me`, { headers: { Authorization: `Bearer ${session.jwt}` } });
    const user = (await me.json()) as { id: number; email: string; provider: string; createdAt: string };
    expect(user).toMatchObject({ email: `fb_${id}@example.test`.toLowerCase(), provider: 'facebook' });
    expect(String(user.id)).toBe(session.userId);
    expect(Date.now() - Date.parse(user.createdAt)).toBeLessThan(NEW_ACCOUNT_MS);
    expect(await page.evaluate(() => window.localStorage.getItem('socialLoginRedirect'))).toBeNull();

    await page.getByRole('link', { name: 'Skip for now' }).click();
    await waitForPath(page, '/profile');
  });

  it('saves the first-run BMI details', async () => {
    await loggedInToFacebookAs(context, uniqueSuffix());
    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue with Facebook' }).click();
    await waitForPath(page, '/bmi');

    await page.getByLabel('Height (cm)', { exact: true }).fill('180');
    await page.getByLabel('Weight (kg)', { exact: true }).fill('82');
    await page.getByLabel('Gender', { exact: true }).selectOption('Female');
    await page.getByLabel('Date of Birth', { exact: true }).fill('1990-05-01');
    const saved = page.waitForResponse((r) => /^\/api\/users\/\d+$/.test(new URL(r.url()).pathname) && r.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    const response = await saved;
    expect(response.status(), `PUT /api/users/:id answered ${response.status()}: ${await response.text()}`).toBe(200);
    await waitForPath(page, '/profile');

    const { jwt } = await storedSession(page);
    const me = await fetch(`${baseUrl()}/api/users/me?populate=*`, { headers: { Authorization: `Bearer ${jwt}` } });
    expect(((await me.json()) as { bmi: unknown }).bmi).toMatchObject({
      height: 180,
      currentWeight: 82,
      Gender: 'Female',
      date_of_birth: '1990-05-01',
    });
  });

  it('sends a returning person to the saved return route (socialLoginRedirect)', async () => {
    const id = uniqueSuffix();
    const userId = await existingFacebookAccount(id);
    // Two minutes later, for the browser: the account is no longer new.
    await context.clock.setFixedTime(new Date(Date.now() + 2 * NEW_ACCOUNT_MS));
    await loggedInToFacebookAs(context, id);

    await page.goto('/login?from=%2Fprofile');
    const saved = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/connect/facebook');
    await page.getByRole('button', { name: 'Continue with Facebook' }).click();
    await saved;
    await waitForPath(page, '/profile');
    expect((await storedSession(page)).userId).toBe(String(userId));
    expect(await page.evaluate(() => window.localStorage.getItem('socialLoginRedirect'))).toBeNull();
  });

  it('goes back to /login with the error when the person declines at Facebook', async () => {
    await loggedInToFacebookAs(context, uniqueSuffix(), { deny: true });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue with Facebook' }).click();
    await expectGreenNotice(page, 'access_denied');
    expect(await storedSession(page)).toEqual({ jwt: null, userId: null });
  });

  it('shows "not set up" when Facebook is not configured', async () => {
    // This server has Facebook set up; the answer of a server without it is played back here.
    await page.route('**/api/social/config', (route) =>
      route.fulfill({
        json: {
          google: { enabled: false, clientId: null },
          apple: { enabled: false, clientId: null, redirectURI: null },
          facebook: { enabled: false },
        },
      }),
    );
    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue with Facebook' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), poll).toBe('Facebook sign-in is not set up on this site.');
    for (const button of socialButtons(page)) expect(await button.isEnabled()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/login');
  });
});

describe('Continue with Google / Apple on a server without them', () => {
  it('shows "Google Sign-In is not set up on this site." and re-enables the buttons', async () => {
    await page.goto('/login');
    const config = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/social/config');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    expect(await (await config).json()).toMatchObject({ google: { enabled: false, clientId: null }, facebook: { enabled: true } });
    await expect.poll(() => page.getByRole('alert').textContent(), poll).toBe('Google Sign-In is not set up on this site.');
    for (const button of socialButtons(page)) await expect.poll(() => button.isEnabled(), poll).toBe(true);
  });

  it('shows "Apple Sign-In is not set up on this site."', async () => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue with Apple' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), poll).toBe('Apple Sign-In is not set up on this site.');
  });

  it('the server refuses Google and Apple tokens with its "not set up" message', async () => {
    for (const [provider, label] of [
      ['google', 'Google'],
      ['apple', 'Apple'],
    ] as const) {
      const res = await fetch(`${baseUrl()}/api/auth/${provider}/callback?access_token=abc`, { signal: AbortSignal.timeout(WAIT_MS) });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(`${label} sign-in is not set up on this site.`);
    }
  });
});
