import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { WAIT_MS, browserPerTest, createUser, newContext, storedSession, waitForPath, type BrowserSession } from './support/browser';
import { emailsTo, waitForEmail } from './support/outbox';

/**
 * Security → Signed-in devices in Chromium: two browser contexts signed in as one member; the first
 * lists both and signs the second out; the second's next request sends it to /login. And the sign-in
 * alert: a device the account has not seen gets one e-mail, whose link opens that list.
 */

const poll = { timeout: WAIT_MS, interval: 50 };
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let session: BrowserSession;
browserPerTest((opened) => (session = opened));

async function logIn(page: Page, identifier: string, password: string) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email or Username' }).fill(identifier);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  await waitForPath(page, '/');
}

const devices = (page: Page) => page.getByRole('group', { name: 'Signed-in devices' });
const deviceNames = (page: Page) =>
  devices(page)
    .getByRole('listitem')
    .evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));

describe('Signed-in devices', () => {
  it('lists both browsers, signs the other one out, and that one is sent to /login on its next request', async () => {
    const user = await createUser();
    const here = session.page;
    await logIn(here, user.username, user.password);
    const phoneContext = await newContext(session.browser, { userAgent: IPHONE_SAFARI });
    try {
      const phone = await phoneContext.newPage();
      await logIn(phone, user.email, user.password);

      await here.goto('/profile?tab=security');
      await expect
        .poll(() => deviceNames(here), poll)
        .toEqual(expect.arrayContaining(['Chrome on Linux computer, this device', 'Safari on iPhone']));
      const phoneItem = devices(here).getByRole('listitem', { name: 'Safari on iPhone', exact: true });
      await phoneItem.getByRole('button', { name: 'Sign out' }).click();
      await expect.poll(() => deviceNames(here), poll).not.toContain('Safari on iPhone');
      expect(await deviceNames(here)).toContain('Chrome on Linux computer, this device');
      // Confirmed, and each device shows the time it was last active as well as the day.
      await expect.poll(() => devices(here).getByRole('status').textContent(), poll).toBe('Signed out.');
      expect(await devices(here).getByRole('listitem').first().innerText()).toMatch(/Last active .*\d{1,2}:\d{2}/);

      // The phone still holds its token; its next request to the server is refused and ends the session there.
      expect((await storedSession(phone)).jwt).not.toBeNull();
      await phone.goto('/profile');
      await waitForPath(phone, '/login');
      await expect.poll(() => storedSession(phone), poll).toEqual({ jwt: null, userId: null });
      // Told why: signed out from another device, not an expired session.
      await expect.poll(() => phone.getByRole('status').textContent(), poll).toBe('You were signed out from another device.');

      // This device is untouched: it still loads its profile.
      await here.reload();
      await expect.poll(() => deviceNames(here), poll).toContain('Chrome on Linux computer, this device');
    } finally {
      await phoneContext.close();
    }
  });

  it('signing out this device logs it out', async () => {
    const user = await createUser();
    const here = session.page;
    await logIn(here, user.username, user.password);
    await here.goto('/profile?tab=security');
    const { jwt } = await storedSession(here);
    const thisDevice = devices(here).getByRole('listitem', { name: 'Chrome on Linux computer, this device', exact: true });
    await thisDevice.getByRole('button', { name: 'Sign out' }).click();
    await waitForPath(here, '/login');
    await expect.poll(() => storedSession(here), poll).toEqual({ jwt: null, userId: null });
    // The old token is refused by the server too.
    expect((await fetch(new URL('/api/users/me', here.url()), { headers: { Authorization: `Bearer ${jwt}` } })).status).toBe(401);
  });

  it('a sign-in from a new device e-mails an alert whose link opens Security; the same device again does not', async () => {
    const user = await createUser();
    const here = session.page;
    await logIn(here, user.username, user.password);
    const alerts = () => emailsTo(user.email).filter((email) => email.subject === 'New sign-in to your Carnivo account');
    // The account was registered through the API (another client): this browser is new to it too.
    await expect.poll(() => alerts().length, poll).toBe(1);
    const before = 1;

    const phoneContext = await newContext(session.browser, { userAgent: IPHONE_SAFARI });
    try {
      const phone = await phoneContext.newPage();
      await logIn(phone, user.email, user.password);
      await expect.poll(() => alerts().length, poll).toBe(before + 1);
      const alert = alerts().at(-1)!;
      expect(alert.raw).toContain('Safari on iPhone');
      const link = /(https?:\/\/\S+\/profile\?tab=security)/.exec(alert.raw)?.[1];
      expect(link, alert.raw).toBeDefined();

      // The member follows the link where they are signed in, and sees the phone to sign out.
      await here.goto(new URL(link!).pathname + new URL(link!).search);
      await expect.poll(() => deviceNames(here), poll).toContain('Safari on iPhone');

      // The same phone signing in again is a device the account has seen: no second alert.
      await phone.evaluate(() => window.localStorage.clear());
      await logIn(phone, user.email, user.password);
      // Something mailed after the second sign-in shows the queue has caught up: a reset code.
      const mailed = emailsTo(user.email).length;
      await fetch(new URL('/api/auth/forgot-password', here.url()), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: user.email }),
      });
      await waitForEmail(user.email, mailed);
      expect(alerts().length).toBe(before + 1);
    } finally {
      await phoneContext.close();
    }
  });
});
