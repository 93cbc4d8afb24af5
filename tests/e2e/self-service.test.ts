import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { AccountExport } from '../../server/src/contract/billing';
import { baseUrl, browserPerTest, createUser, openLoggedIn, type TestUser, WAIT_MS } from './support/browser';
import { expectSiteLook } from './support/siteLook';

const poll = { timeout: WAIT_MS, interval: 50 };

let page: Page;
browserPerTest((session) => ({ page } = session));

const subscriptionsTab = (p: Page): Locator => p.getByRole('region', { name: 'Subscriptions' });
const billing = (p: Page): Locator => p.getByRole('region', { name: 'Billing', exact: true });
const history = (p: Page): Locator => p.getByRole('region', { name: 'Billing history' });

async function currentSubscription(user: TestUser): Promise<{ cancel_at_period_end: boolean } | null> {
  const response = await fetch(`${baseUrl()}/api/subscriptions/current`, {
    headers: { Authorization: `Bearer ${user.jwt}` },
    signal: AbortSignal.timeout(WAIT_MS),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { cancel_at_period_end: boolean } | null;
}

/** The card line of Billing. */
const cardOnFile = (p: Page) =>
  billing(p)
    .getByText(/^Card on file:/)
    .innerText();

/** A card's expiry month the way the page writes it, in the browser's own locale. */
function pageMonth(p: Page, year: number, month: number): Promise<string> {
  return p.evaluate(
    ([y, m]) => new Date(Date.UTC(y, m - 1, 1)).toLocaleDateString(undefined, { year: 'numeric', month: 'long', timeZone: 'UTC' }),
    [year, month] as const,
  );
}

async function fillCard(dialog: Locator, cardNumber: string) {
  await dialog.getByLabel('Card number').fill(cardNumber);
  await dialog.getByLabel('Expiry (MM/YY)').fill('12/34');
  await dialog.getByLabel('CVC').fill('123');
}

describe('member self-service on the sandbox gateway (issue 11)', () => {
  it('pays, sees the invoice and its receipt, updates the card, cancels and resumes, and downloads the data', async () => {
    const user = await createUser();
    await openLoggedIn(page, user, '/profile?tab=subscriptions');
    const tab = subscriptionsTab(page);
    await tab.getByRole('button', { name: 'Subscribe to Carnivo Monthly' }).click();
    const payment = page.getByRole('dialog', { name: 'Complete your subscription' });
    await fillCard(payment, '4242 4242 4242 4242');
    await payment.getByRole('button', { name: 'Pay Now' }).click();
    await payment.waitFor({ state: 'detached' });
    await expect.poll(() => tab.locator('.subscription-card .status').textContent(), poll).toBe('active');

    // The payment's invoice, reloaded after the purchase.
    const invoice = history(page).getByRole('listitem');
    await expect.poll(() => invoice.count(), poll).toBe(1);
    const row = await invoice.innerText();
    expect(row).toContain('$9.99');
    expect(await invoice.locator('.invoice__status').textContent()).toBe('paid');
    const receipt = invoice.getByRole('link', { name: 'Receipt' });
    // Relative to the site: it opens on the address the member uses.
    expect(await receipt.getAttribute('href')).toMatch(/^\/api\/payments\/sandbox\/receipts\/in_sandbox_/);
    expect(await receipt.getAttribute('target')).toBe('_blank');
    expect(await receipt.getAttribute('rel')).toBe('noopener noreferrer');
    const [receiptPage] = await Promise.all([page.context().waitForEvent('page'), receipt.click()]);
    await receiptPage.waitForLoadState();
    await receiptPage.getByRole('heading', { name: 'Carnivo receipt' }).waitFor();
    expect(await receiptPage.innerText('body')).toContain('$9.99');
    expect(await receiptPage.evaluate(() => window.opener)).toBeNull();
    expect(receiptPage.url().startsWith(`${baseUrl()}/api/payments/sandbox/receipts/`)).toBe(true);
    // Nothing on it names the member.
    const receiptText = await receiptPage.innerText('body');
    expect(receiptText).not.toContain(user.username);
    expect(receiptText).not.toContain(user.email);
    await expectSiteLook(receiptPage, baseUrl());
    await receiptPage.close();

    // The paying card is the card on file.
    await expect.poll(() => cardOnFile(page), poll).toBe(`Card on file: Visa ending in 4242, expires ${await pageMonth(page, 2034, 12)}`);

    // Sandbox mode: "Manage billing" replaces the card on file in a dialog; another test number shows the change.
    await billing(page).getByRole('button', { name: 'Manage billing' }).click();
    const cardDialog = page.getByRole('dialog', { name: 'Update your card' });
    expect(await cardDialog.innerText()).toContain('5555 5555 5555 4444 (Mastercard)');
    await fillCard(cardDialog, '5555 5555 5555 4444');
    await cardDialog.getByRole('button', { name: 'Update card' }).click();
    await cardDialog.waitFor({ state: 'detached' });
    await expect.poll(() => billing(page).getByRole('status').first().innerText(), poll).toBe('Your card has been updated.');
    const mastercard = `Card on file: Mastercard ending in 4444, expires ${await pageMonth(page, 2034, 12)}`;
    await expect.poll(() => cardOnFile(page), poll).toBe(mastercard);

    // A declined card: the dialog says so, and the card on file stays, after a fresh load too.
    await billing(page).getByRole('button', { name: 'Manage billing' }).click();
    await fillCard(cardDialog, '4000 0000 0000 0002');
    await cardDialog.getByRole('button', { name: 'Update card' }).click();
    await expect.poll(() => cardDialog.getByRole('alert').innerText(), poll).toBe('Your card was declined.');
    await cardDialog.getByRole('button', { name: 'Cancel' }).click();
    await cardDialog.waitFor({ state: 'detached' });
    expect(await cardOnFile(page)).toBe(mastercard);
    await page.reload();
    await expect.poll(() => cardOnFile(page), poll).toBe(mastercard);

    // Cancel at period end, then undo it.
    await tab.getByRole('button', { name: 'Unsubscribe' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Cancel Subscription' });
    await confirm.getByRole('button', { name: 'Yes, Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => tab.innerText(), poll).toContain('Cancelling on');
    expect((await currentSubscription(user))?.cancel_at_period_end).toBe(true);
    await tab.getByRole('button', { name: 'Resume subscription' }).click();
    await expect.poll(() => tab.getByRole('status').first().innerText(), poll).toBe('Your subscription will continue.');
    await tab.getByRole('button', { name: 'Unsubscribe' }).waitFor();
    expect(await tab.getByText('Cancelling on').count()).toBe(0);
    expect((await currentSubscription(user))?.cancel_at_period_end).toBe(false);

    // "Download my data" in the Information tab: a JSON file with the member's own data, no secrets.
    await page.getByRole('navigation', { name: 'Profile sections' }).getByRole('link', { name: 'Information' }).click();
    const exportButton = page.getByRole('region', { name: 'Your data' }).getByRole('button', { name: 'Download my data' });
    const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
    expect(download.suggestedFilename()).toMatch(/\.json$/);
    const text = await readFile(await download.path(), 'utf8');
    const data = JSON.parse(text) as AccountExport;
    expect(data.account).toMatchObject({ id: user.id, username: user.username, email: user.email });
    expect(data.subscriptions).toHaveLength(1);
    expect(data.subscriptions[0]).toMatchObject({ status: 'active', cancel_at_period_end: false });
    expect(data.invoices.length).toBeGreaterThanOrEqual(1);
    expect(data.invoices[0]).toMatchObject({ amount: 999, status: 'paid' });
    expect(text).not.toContain(user.password);
    expect(text).not.toContain(user.jwt);
    expect(text).not.toMatch(/"(password|resetPasswordToken|confirmationToken)"/);
    await expect
      .poll(() => page.getByRole('region', { name: 'Your data' }).getByRole('status').innerText(), poll)
      .toBe(`Your data has been downloaded as ${download.suggestedFilename()}.`);
  });
});
