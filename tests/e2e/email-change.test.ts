import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { baseUrl, browserPerTest, createUser, openLoggedIn, storedSession, type TestUser, WAIT_MS, waitForPath } from './support/browser';
import { emailsTo, waitForEmail, type OutboxEmail } from './support/outbox';

/**
 * Verified e-mail change (issue 23; docs/security.md#verified-e-mail-change) in Chromium: the profile asks
 * for a new address, the link read from the outbox confirms it (then the member logs in with it), or the
 * link mailed to the old address cancels it.
 */

const poll = { timeout: WAIT_MS, interval: 50 };

let page: Page;
browserPerTest((session) => ({ page } = session));

/** The link of `page` in an e-mail of the change, as a path on the site. */
function linkOf(email: OutboxEmail, kind: 'confirm' | 'cancel'): string {
  const match = new RegExp(`(https?://[^\\s"<]+/email-change/${kind}\\?token=[0-9]+\\.[A-Za-z0-9_-]{43})`).exec(email.raw);
  if (!match) throw new Error(`no ${kind} link in ${email.file}:\n${email.raw}`);
  const url = new URL(match[1]);
  expect(url.origin).toBe(baseUrl());
  return `${url.pathname}${url.search}`;
}

async function me(jwt: string): Promise<{ status: number; email?: string; pending_email?: string | null }> {
  const response = await fetch(`${baseUrl()}/api/users/me`, {
    headers: { Authorization: `Bearer ${jwt}` },
    signal: AbortSignal.timeout(WAIT_MS),
  });
  return { status: response.status, ...((await response.json()) as { email?: string; pending_email?: string | null }) };
}

/** Asks for `newEmail` in the Information section; returns the section. */
async function askForNewEmail(user: TestUser, newEmail: string): Promise<Locator> {
  await openLoggedIn(page, user, '/profile?tab=information');
  const section = page.getByRole('region', { name: 'Information' });
  await section.getByRole('button', { name: 'Edit Profile' }).click();
  await section.getByRole('textbox', { name: 'Email' }).fill(newEmail);
  await section.getByLabel('Current password', { exact: true }).fill(user.password);
  await section.getByRole('button', { name: 'Save', exact: true }).click();
  await expect
    .poll(() => section.getByRole('status').textContent(), poll)
    .toBe(`We sent a confirmation link to ${newEmail}. Your email changes when you open it (within 24 hours).`);
  await expect.poll(() => section.innerText(), poll).toContain(`${newEmail}: waiting for you to open the link`);
  return section;
}

async function logIn(identifier: string, password: string) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email or Username' }).fill(identifier);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
}

describe('verified e-mail change', () => {
  it('the link mailed to the new address changes it; the member then logs in with the new address, not the old', async () => {
    const user = await createUser();
    const newEmail = `moved_${user.email}`;
    const seenNew = emailsTo(newEmail).length;
    const seenOld = emailsTo(user.email).length;
    await askForNewEmail(user, newEmail);
    // Nothing changed yet: the old address is still the account's, the session lives.
    expect(await me(user.jwt)).toMatchObject({ status: 200, email: user.email, pending_email: newEmail });
    const notice = await waitForEmail(user.email, seenOld);
    expect(notice.subject).toBe('A change of your Carnivo e-mail address was requested');
    linkOf(notice, 'cancel');

    await page.goto(linkOf(await waitForEmail(newEmail, seenNew), 'confirm'));
    await page.getByRole('heading', { level: 1, name: 'Confirm Your New Email' }).waitFor();
    // Opening the link changed nothing: the button does.
    expect((await me(user.jwt)).email).toBe(user.email);
    const confirmCall = page.waitForResponse((r) => r.url().endsWith('/api/auth/email-change/confirm'));
    await page.getByRole('button', { name: 'Confirm New Email' }).click();
    expect((await confirmCall).status()).toBe(200);
    await expect
      .poll(() => page.getByRole('status').textContent(), poll)
      .toBe(`Your email address is now ${newEmail}. Please log in with it.`);
    // Every session ended with the change.
    expect((await me(user.jwt)).status).toBe(401);

    await page.evaluate(() => window.localStorage.clear());
    await logIn(user.email, user.password);
    await expect.poll(() => page.getByRole('alert').textContent(), poll).toBe('Invalid identifier or password');
    await logIn(newEmail, user.password);
    await waitForPath(page, '/');
    await expect.poll(async () => (await storedSession(page)).userId, poll).toBe(String(user.id));
    const session = await storedSession(page);
    expect(await me(session.jwt ?? '')).toMatchObject({ status: 200, email: newEmail, pending_email: null });
  });

  it('the link mailed to the old address cancels it; the confirmation link then changes nothing', async () => {
    const user = await createUser();
    const newEmail = `cancelled_${user.email}`;
    const seenNew = emailsTo(newEmail).length;
    const seenOld = emailsTo(user.email).length;
    await askForNewEmail(user, newEmail);
    const confirmLink = linkOf(await waitForEmail(newEmail, seenNew), 'confirm');

    await page.goto(linkOf(await waitForEmail(user.email, seenOld), 'cancel'));
    await page.getByRole('heading', { level: 1, name: 'Cancel Email Change' }).waitFor();
    await page.getByRole('button', { name: 'Cancel Email Change' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent(), poll)
      .toBe('The email change was cancelled. Your email address stays as it was.');
    expect(await me(user.jwt)).toMatchObject({ status: 200, email: user.email, pending_email: null });

    await page.goto(confirmLink);
    await page.getByRole('button', { name: 'Confirm New Email' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), poll)
      .toBe(
        'This confirmation link is invalid, was already used or has expired. Change your email again from your profile to get a new one.',
      );
    expect(await me(user.jwt)).toMatchObject({ status: 200, email: user.email });
  });
});
