import { describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  baseUrl,
  browserPerTest,
  createUser,
  MOBILE,
  newContext,
  openLoggedIn,
  screenshot,
  type TestUser,
  WAIT_MS,
  waitForPath,
} from './support/browser';
import { seriousAxeViolations } from './support/a11y';
import { waitForEmail } from './support/outbox';

const poll = { timeout: WAIT_MS, interval: 50 };

let browser: Browser;
let page: Page;
browserPerTest((session) => ({ browser, page } = session));

type Current = { status: string; cancel_at_period_end: boolean; currentPeriodEnd: string; refundableUntil: string | null } | null;

async function currentSubscription(user: TestUser): Promise<Current> {
  const response = await fetch(`${baseUrl()}/api/subscriptions/current`, {
    headers: { Authorization: `Bearer ${user.jwt}` },
    signal: AbortSignal.timeout(WAIT_MS),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Current;
}

function subscriptionsTab(p: Page): Locator {
  return p.getByRole('region', { name: 'Subscriptions' });
}

async function openSubscriptions(p: Page, user: TestUser) {
  await openLoggedIn(p, user, '/profile?tab=subscriptions');
  await subscriptionsTab(p).getByRole('button', { name: 'Subscribe to Carnivo Monthly' }).waitFor();
}

async function pay(p: Page, cardNumber: string) {
  await subscriptionsTab(p).getByRole('button', { name: 'Subscribe to Carnivo Monthly' }).click();
  const dialog = p.getByRole('dialog', { name: 'Complete your subscription' });
  await dialog.waitFor();
  await dialog.getByLabel('Card number').fill(cardNumber);
  await dialog.getByLabel('Expiry (MM/YY)').fill('12/34');
  await dialog.getByLabel('CVC').fill('123');
  await dialog.getByRole('button', { name: 'Pay Now' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** The date and time the way the page writes them, in the browser's own locale and zone. */
function pageDateTime(p: Page, iso: string): Promise<string> {
  return p.evaluate(
    (value) =>
      new Date(value).toLocaleString(undefined, { year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit' }),
    iso,
  );
}

/** The date the way the page writes it, in the browser's own locale. */
function pageDate(p: Page, iso: string): Promise<string> {
  return p.evaluate((value) => new Date(value).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' }), iso);
}

describe('subscriptions on the sandbox gateway', () => {
  it('shows the plans in dollars, including one that is no longer available', async () => {
    const user = await createUser();
    await openSubscriptions(page, user);
    const tab = subscriptionsTab(page);
    await expect.poll(() => tab.innerText(), poll).toContain('$9.99');
    expect(await tab.innerText()).toContain('$79.99');
    expect(await tab.innerText()).toContain('No longer available');
    // The plans and the member's subscription load separately.
    await expect.poll(() => tab.innerText(), poll).toContain('You have no subscription yet.');
    // The retired plan offers nothing to click; the others can be bought.
    const retired = tab.locator('.plan--inactive');
    expect(await retired.getByRole('heading').innerText()).toBe('Carnivo Founders (retired)');
    expect(await retired.getByRole('button').count()).toBe(0);
    expect(await tab.getByRole('button', { name: 'Subscribe to Carnivo Yearly' }).isEnabled()).toBe(true);
    expect(await tab.getByText('Current plan').count()).toBe(0);
    await screenshot(page, 'desktop-subscriptions');
  });

  it('buys with the success card and shows the active subscription', async () => {
    const user = await createUser();
    await openSubscriptions(page, user);
    await pay(page, '4242 4242 4242 4242');
    const tab = subscriptionsTab(page);
    await expect.poll(() => tab.getByRole('status').innerText(), poll).toBe('Subscription successful!');
    const status = tab.locator('.status');
    await expect.poll(() => status.textContent(), poll).toBe('active');
    expect(await status.getAttribute('class')).toContain('status--active');
    expect(await tab.innerText()).toContain('Carnivo Monthly');
    await tab.getByRole('button', { name: 'Unsubscribe' }).waitFor();
    const current = await currentSubscription(user);
    expect(current).toMatchObject({ status: 'active', cancel_at_period_end: false });
    // The success message goes after 3 seconds.
    await tab.getByRole('status').waitFor({ state: 'detached', timeout: 5000 });
    await screenshot(page, 'desktop-subscription-active');
  });

  it('a declined card shows the error, and nothing becomes active', async () => {
    const user = await createUser();
    await openSubscriptions(page, user);
    await pay(page, '4000 0000 0000 0002');
    const tab = subscriptionsTab(page);
    await expect.poll(() => tab.getByRole('alert').innerText(), poll).toBe('Your card was declined.');
    const current = await currentSubscription(user);
    expect(current === null || current.status !== 'active').toBe(true);
    expect(await tab.getByRole('button', { name: 'Unsubscribe' }).count()).toBe(0);
    // A second attempt with a good card still works.
    await pay(page, '4242424242424242');
    await expect.poll(() => tab.locator('.status').textContent(), poll).toBe('active');
  });

  it('marks the plan bought, offers no other while it renews, and the server still refuses one', async () => {
    const user = await createUser();
    await openSubscriptions(page, user);
    await pay(page, '4242 4242 4242 4242');
    const tab = subscriptionsTab(page);
    await expect.poll(() => tab.locator('.status').textContent(), poll).toBe('active');
    const monthly = tab.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Carnivo Monthly' }) });
    await monthly.getByText('Current plan').waitFor();
    expect(await monthly.getByRole('button').count()).toBe(0);
    const yearly = tab.getByRole('button', { name: 'Subscribe to Carnivo Yearly' });
    await expect.poll(() => yearly.isDisabled(), poll).toBe(true);
    // The reason, in the server's words, is the disabled button's description.
    expect(await yearly.evaluate((button) => document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent)).toBe(
      'You already have an active subscription.',
    );
    expect(await tab.getByRole('alert').count()).toBe(0);

    const refused = await fetch(`${baseUrl()}/api/subscriptions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${user.jwt}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ priceId: 'price_sandbox_yearly' }),
      signal: AbortSignal.timeout(WAIT_MS),
    });
    expect([refused.status, ((await refused.json()) as { error: { message: string } }).error.message]).toEqual([
      400,
      'You already have an active subscription.',
    ]);
  });

  it("cancelling within 3 s of paying replaces 'Subscription successful!' with the cancellation notice", async () => {
    const user = await createUser();
    await openSubscriptions(page, user);
    await pay(page, '4242 4242 4242 4242');
    const tab = subscriptionsTab(page);
    await expect.poll(() => tab.getByRole('status').innerText(), poll).toBe('Subscription successful!');
    const paidAt = Date.now();
    await tab.getByRole('button', { name: 'Unsubscribe' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Cancel Subscription' });
    await dialog.getByRole('button', { name: 'Yes, Cancel' }).click();
    await expect.poll(() => tab.getByRole('status').innerText(), poll).toContain('Your subscription has been cancelled.');
    // Seen while the success message would still have been on screen (it showed for 3 s, then gave way).
    expect(Date.now() - paidAt).toBeLessThan(3000);
    // A plan set to cancel blocks no purchase: every active plan is offered again, the member's still marked.
    await expect.poll(() => tab.getByRole('button', { name: 'Subscribe to Carnivo Yearly' }).isEnabled(), poll).toBe(true);
    expect(await tab.getByRole('button', { name: 'Subscribe to Carnivo Monthly' }).isEnabled()).toBe(true);
    expect(await tab.getByText('Current plan').count()).toBe(1);
  });

  it('cancels at the end of the period and says so', async () => {
    const user = await createUser();
    await openSubscriptions(page, user);
    await pay(page, '4242 4242 4242 4242');
    const tab = subscriptionsTab(page);
    await tab.getByRole('button', { name: 'Unsubscribe' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Cancel Subscription' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Your access continues until the end of your billing period');
    await dialog.getByRole('button', { name: 'No, Keep Subscription' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await currentSubscription(user))?.cancel_at_period_end).toBe(false);

    await tab.getByRole('button', { name: 'Unsubscribe' }).click();
    await dialog.getByRole('button', { name: 'Yes, Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    const current = await currentSubscription(user);
    expect(current).toMatchObject({ status: 'active', cancel_at_period_end: true });
    const endDate = await pageDate(page, current!.currentPeriodEnd);
    await expect.poll(() => tab.innerText(), poll).toContain(`Cancelling on ${endDate}`);
    expect(await tab.getByRole('button', { name: 'Unsubscribe' }).count()).toBe(0);
    // The notice writes the date as the card does: one date format across the member area.
    await expect
      .poll(() => tab.getByRole('status').innerText(), poll)
      .toBe(`Your subscription has been cancelled. You keep access until ${endDate}.`);
  });

  it('deleting the account ends its subscription with it, and the page says so first', async () => {
    // Its own context: bypassCSP lets axe's script in past the site's Content-Security-Policy.
    const context = await newContext(browser, { bypassCSP: true });
    try {
      const p = await context.newPage();
      const user = await createUser();
      await openSubscriptions(p, user);
      await pay(p, '4242 4242 4242 4242');
      await expect.poll(() => subscriptionsTab(p).locator('.status').textContent(), poll).toBe('active');
      const { refundableUntil } = (await currentSubscription(user))!;
      expect(refundableUntil).not.toBeNull();
      await p.goto('/delete-profile');
      // Before deleting, the page and its dialog say what happens to the plan, and how to get the first payment back.
      const ends =
        'Your Carnivo Monthly subscription ends when your account is deleted. You will not be charged again, and the rest of the period you have paid for is not refunded.';
      const guarantee = `Your first payment is covered by our 30-day money-back guarantee until ${await pageDateTime(p, refundableUntil!)}.`;
      const notice = p.locator('main .alert--notice').first();
      await expect.poll(() => notice.innerText(), poll).toContain(ends);
      expect(await notice.innerText()).toContain(guarantee);
      expect(await notice.getByRole('link', { name: 'Subscriptions tab' }).getAttribute('href')).toBe('/profile?tab=subscriptions');
      await p.getByRole('button', { name: 'Delete My Account' }).click();
      const dialog = p.getByRole('alertdialog', { name: 'Confirm Account Deletion' });
      expect(await dialog.innerText()).toContain(ends);
      expect(await dialog.innerText()).toContain(guarantee);
      expect(await seriousAxeViolations(p)).toEqual([]);
      await dialog.getByRole('button', { name: 'Yes, Delete' }).click();
      await waitForPath(p, '/login');
      await expect.poll(() => p.getByRole('status').innerText(), poll).toBe('Your account has been deleted successfully.');
      const response = await fetch(`${baseUrl()}/api/subscriptions/current`, { headers: { Authorization: `Bearer ${user.jwt}` } });
      expect(response.status).toBe(401);
    } finally {
      await context.close();
    }
  });

  it('refunds the first payment within 30 days: the amount is confirmed, access ends now, the invoice reads refunded, a receipt is e-mailed', async () => {
    const user = await createUser();
    await openSubscriptions(page, user);
    await pay(page, '4242 4242 4242 4242');
    const tab = subscriptionsTab(page);
    await expect.poll(() => tab.locator('.status').textContent(), poll).toBe('active');
    const { refundableUntil } = (await currentSubscription(user))!;
    const offer = `30-day money-back guarantee: you can get your first payment of $9.99 back until ${await pageDateTime(page, refundableUntil!)}.`;
    await expect.poll(() => tab.innerText(), poll).toContain(offer);

    await tab.getByRole('button', { name: 'Request a refund' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Request a refund' });
    expect(await dialog.innerText()).toContain(
      'We will refund your first payment of $9.99 in full to the card you paid with. Your subscription ends now, and its paid features stop straight away.',
    );
    await dialog.getByRole('button', { name: 'Yes, Refund' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(() => tab.getByRole('status').first().innerText(), poll)
      .toBe('Your first payment of $9.99 has been refunded and your subscription has ended.');
    await expect.poll(() => tab.innerText(), poll).toContain('You have no subscription yet.');
    expect(await tab.getByRole('button', { name: 'Request a refund' }).count()).toBe(0);
    const invoice = page.getByRole('region', { name: 'Billing history' }).getByRole('listitem');
    await expect.poll(() => invoice.locator('.invoice__status').textContent(), poll).toBe('refunded');

    // Re-read from the server: no subscription left, and the receipt in the member's mail.
    expect(await currentSubscription(user)).toBeNull();
    const mail = await waitForEmail(user.email);
    expect(mail.subject).toBe('Your Carnivo refund of $9.99 USD');
    // Once per member: the plans can be bought again, without the guarantee.
    await tab.getByRole('button', { name: 'Subscribe to Carnivo Monthly' }).waitFor();
  });

  it('fits a phone', async () => {
    const phone = await newContext(browser, { viewport: MOBILE });
    try {
      const mobilePage = await phone.newPage();
      const user = await createUser();
      await openSubscriptions(mobilePage, user);
      await mobilePage.getByRole('navigation', { name: 'Profile quick links' }).getByRole('link', { name: 'Subscriptions' }).waitFor();
      expect(await mobilePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
      await screenshot(mobilePage, 'mobile-subscriptions');
    } finally {
      await phone.close();
    }
  });
});
