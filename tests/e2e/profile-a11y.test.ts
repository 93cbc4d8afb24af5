import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { seriousAxeViolations } from './support/a11y';
import { holdRequests } from './support/requests';
import {
  closeBrowser,
  createUser,
  DESKTOP,
  launchBrowser,
  MOBILE,
  newContext,
  openLoggedIn,
  screenshot,
  type TestUser,
  WAIT_MS,
} from './support/browser';

// Issue 13: axe finds no serious or critical violation on any profile tab or dialog, in every open state.

const poll = { timeout: WAIT_MS, interval: 50 };

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await closeBrowser(browser);
});

type Viewport = { width: number; height: number };

/** A fresh context per test; bypassCSP lets axe's script in past the site's Content-Security-Policy. */
async function withPage(viewport: Viewport, run: (page: Page) => Promise<void>): Promise<void> {
  const context = await newContext(browser, { viewport, bypassCSP: true });
  try {
    await run(await context.newPage());
  } finally {
    await context.close();
  }
}

/** Finite CSS transitions (slide-in menu, modal) must end first, or axe reads colours mid-fade. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
    undefined,
    { timeout: WAIT_MS },
  );
}

/** Runs axe and fails listing every serious or critical violation: id, impact, targets, summary. */
async function expectNoSeriousViolations(page: Page, state: string): Promise<void> {
  await settle(page);
  const findings = (await seriousAxeViolations(page)).map(
    ({ id, impact, targets, help }) => `${id} (${impact}) at ${targets.join(' | ')}: ${help}`,
  );
  expect(findings, `axe on ${state}`).toEqual([]);
  await screenshot(page, `a11y-${state}`, { fullPage: false });
}

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

async function openTab(page: Page, user: TestUser, tab: string, regionName: string): Promise<Locator> {
  await openLoggedIn(page, user, `/profile?tab=${tab}`);
  await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
  const section = region(page, regionName);
  await section.waitFor();
  return section;
}

// A 1x1 PNG: enough for the picture preview, which never leaves the browser here.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const tabs: Array<{ id: string; region: string; ready: (section: Locator) => Locator[] }> = [
  { id: 'information', region: 'Information', ready: (s) => [s.getByRole('button', { name: 'Edit Profile' })] },
  { id: 'diet', region: 'Diet', ready: (s) => [s.getByRole('button', { name: 'Edit Diet' })] },
  { id: 'interests', region: 'Interests', ready: (s) => [s.getByRole('button', { name: 'Edit Interests' })] },
  { id: 'goals', region: 'Goals', ready: (s) => [s.getByRole('button', { name: 'Edit Goals' })] },
  { id: 'faqs', region: 'FAQs', ready: (s) => [s.getByRole('heading', { name: 'FAQs' })] },
  { id: 'support', region: 'Support', ready: (s) => [s.getByRole('status').or(s.getByRole('button', { name: 'Chat with Support' }))] },
  // Plans and the member's subscription load separately; the retired plan's line must be on screen.
  {
    id: 'subscriptions',
    region: 'Subscriptions',
    ready: (s) => [s.getByText('No longer available'), s.getByText('You have no subscription yet.')],
  },
];

describe.each([
  { label: 'desktop', viewport: DESKTOP },
  { label: 'mobile', viewport: MOBILE },
])('every profile tab at $label size', ({ label, viewport }) => {
  it.each(tabs)('$region', async (tab) => {
    const user = await createUser();
    await withPage(viewport, async (page) => {
      const section = await openTab(page, user, tab.id, tab.region);
      for (const shown of tab.ready(section)) await shown.waitFor();
      await expectNoSeriousViolations(page, `${label}-${tab.id}`);
    });
  });
});

describe('profile sections in edit mode and their messages', () => {
  it('Information: the form, an error alert, the e-mail password field, then the saved view with its BMI badge', async () => {
    const user = await createUser();
    await withPage(DESKTOP, async (page) => {
      const section = await openTab(page, user, 'information', 'Information');
      await section.getByRole('button', { name: 'Edit Profile' }).click();
      await section.getByRole('textbox', { name: 'Height (cm)' }).fill('300');
      await section.getByRole('textbox', { name: 'Weight (kg)' }).fill('90');
      await section.getByRole('textbox', { name: 'Email' }).fill(`new-${user.email}`);
      await section.getByLabel('Current password', { exact: true }).waitFor();
      await section.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(() => section.getByRole('alert').textContent(), poll).toBe('Height must be between 100-250 cm');
      await expectNoSeriousViolations(page, 'information-edit-error');

      await section.getByRole('textbox', { name: 'Email' }).fill(user.email);
      await section.getByRole('textbox', { name: 'Height (cm)' }).fill('180');
      await section.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(() => section.getByRole('status').textContent(), poll).toBe('Profile updated successfully!');
      await section.getByText('Overweight').waitFor();
      await expectNoSeriousViolations(page, 'information-saved');
    });
  });

  it('Diet, Interests and Goals forms', async () => {
    const user = await createUser();
    await withPage(DESKTOP, async (page) => {
      const diet = await openTab(page, user, 'diet', 'Diet');
      await diet.getByRole('button', { name: 'Edit Diet' }).click();
      await diet.getByRole('combobox', { name: 'Diet Preference' }).waitFor();
      await expectNoSeriousViolations(page, 'diet-edit');

      const interests = await openTab(page, user, 'interests', 'Interests');
      await interests.getByRole('button', { name: 'Edit Interests' }).click();
      await interests.getByRole('checkbox', { name: 'Eggs' }).check();
      await expectNoSeriousViolations(page, 'interests-edit');

      const goals = await openTab(page, user, 'goals', 'Goals');
      await goals.getByRole('button', { name: 'Edit Goals' }).click();
      await goals.getByRole('textbox', { name: 'Goal Weight (kg)' }).fill('20');
      await goals.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(() => goals.getByRole('alert').textContent(), poll).toBe('Goal weight must be between 30-300 kg');
      await expectNoSeriousViolations(page, 'goals-edit-error');
    });
  });

  it('Goals: the weight history with entries, its chart and table, and an entry refused', async () => {
    const user = await createUser();
    await withPage(DESKTOP, async (page) => {
      await openTab(page, user, 'goals', 'Goals');
      const history = region(page, 'Weight history');
      for (const [date, weight] of [
        ['2026-01-05', '84.5'],
        ['2026-01-12', '83.1'],
      ]) {
        await history.getByLabel('Date', { exact: true }).fill(date);
        await history.getByLabel('Weight (kg)', { exact: true }).fill(weight);
        await history.getByRole('button', { name: 'Add entry' }).click();
        await expect.poll(() => history.getByRole('status').textContent(), poll).toBe('Weight entry saved');
      }
      await history.getByRole('table', { name: 'Weight entries, newest first' }).getByRole('rowheader').nth(1).waitFor();
      await expectNoSeriousViolations(page, 'goals-weight-history');

      await history.getByLabel('Weight (kg)', { exact: true }).fill('20');
      await history.getByRole('button', { name: 'Add entry' }).click();
      await history.getByRole('alert').waitFor();
      await expectNoSeriousViolations(page, 'goals-weight-refused');
    });
  });

  it('the Change Password panel, open and with an error', async () => {
    const user = await createUser();
    await withPage(DESKTOP, async (page) => {
      const section = await openTab(page, user, 'security', 'Password');
      await section.getByRole('button', { name: 'Change Password' }).click();
      await section.getByLabel('Confirm New Password', { exact: true }).waitFor();
      await expectNoSeriousViolations(page, 'password-open');

      await section.getByLabel('Current Password', { exact: true }).fill('not-my-password');
      await section.getByLabel('New Password', { exact: true }).fill(`${user.password}-new`);
      await section.getByLabel('Confirm New Password', { exact: true }).fill(`${user.password}-new`);
      await section.getByRole('button', { name: 'Update Password' }).click();
      await expect.poll(() => section.getByRole('alert').textContent(), poll).toBe('The provided current password is invalid');
      await expectNoSeriousViolations(page, 'password-error');
    });
  });

  it('the photo preview, and the refusal of a non-image', async () => {
    const user = await createUser();
    await withPage(DESKTOP, async (page) => {
      const section = await openTab(page, user, 'information', 'Profile picture');
      const input = section.getByLabel('Choose a profile picture');
      await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
      await section.getByRole('img', { name: 'Preview of your new profile picture' }).waitFor();
      await section.getByRole('button', { name: 'Save Photo' }).waitFor();
      await expectNoSeriousViolations(page, 'photo-preview');

      await section.getByRole('button', { name: 'Cancel' }).click();
      await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
      await expect.poll(() => section.getByRole('alert').textContent(), poll).toBe('Please choose an image file.');
      await expectNoSeriousViolations(page, 'photo-refused');
    });
  });
});

/** axe's colour-contrast verdict on each node of `selector`: ratio, or the reason it has none. */
async function contrastOf(page: Page, selector: string): Promise<Array<{ text: string; outcome: string; ratio: number | null }>> {
  await seriousAxeViolations(page); // injects axe if the page has not got it yet
  return page.evaluate(async (scope) => {
    type Node = { html: string; any: Array<{ data?: { contrastRatio?: number } }> };
    type Result = { passes: Array<{ nodes: Node[] }>; violations: Array<{ nodes: Node[] }>; incomplete: Array<{ nodes: Node[] }> };
    const axe = (window as unknown as { axe: { run: (context: object, options: object) => Promise<Result> } }).axe;
    const result = await axe.run({ include: [[scope]] }, { runOnly: ['color-contrast'] });
    const verdicts = (outcome: string, groups: Array<{ nodes: Node[] }>) =>
      groups.flatMap(({ nodes }) =>
        nodes.map((node) => ({
          text: new DOMParser().parseFromString(node.html, 'text/html').body.textContent?.trim() ?? '',
          outcome,
          ratio: node.any[0]?.data?.contrastRatio ?? null,
        })),
      );
    return [...verdicts('pass', result.passes), ...verdicts('violation', result.violations), ...verdicts('incomplete', result.incomplete)];
  }, selector);
}

describe('Subscriptions: the retired plan, the payment modal and the cancellation modal', () => {
  it("the retired plan's price and 'No longer available' line meet WCAG AA (4.5:1)", async () => {
    const user = await createUser();
    await withPage(DESKTOP, async (page) => {
      const section = await openTab(page, user, 'subscriptions', 'Subscriptions');
      await section.locator('.plan--inactive').getByText('No longer available').waitFor();
      await settle(page);
      const verdicts = await contrastOf(page, '.plan--inactive');
      // Each line axe must have measured, so a missing node cannot pass silently.
      const texts = verdicts.map((verdict) => verdict.text);
      expect(texts).toContain('No longer available');
      expect(texts).toContain('/ year');
      expect(texts.some((text) => text.startsWith('$49.99'))).toBe(true);
      const weak = verdicts.filter((verdict) => verdict.outcome !== 'pass' || (verdict.ratio ?? 0) < 4.5);
      expect(weak, 'text of the retired plan below 4.5:1 or not measurable').toEqual([]);
    });
  });

  it('payment modal, declined alert, active subscription, cancellation modal, cancelled notice, refund modal, refunded notice', async () => {
    const user = await createUser();
    await withPage(DESKTOP, async (page) => {
      const section = await openTab(page, user, 'subscriptions', 'Subscriptions');
      const subscribe = section.getByRole('button', { name: 'Subscribe to Carnivo Monthly' });
      const dialog = page.getByRole('dialog', { name: 'Complete your subscription' });
      const pay = async (card: string) => {
        await dialog.getByLabel('Card number').fill(card);
        await dialog.getByLabel('Expiry (MM/YY)').fill('12/34');
        await dialog.getByLabel('CVC').fill('123');
        await dialog.getByRole('button', { name: 'Pay Now' }).click();
        await dialog.waitFor({ state: 'detached' });
      };

      await subscribe.click();
      await dialog.getByLabel('Card number').waitFor();
      await expectNoSeriousViolations(page, 'payment-modal');

      await pay('4000 0000 0000 0002');
      await expect.poll(() => section.getByRole('alert').innerText(), poll).toBe('Your card was declined.');
      await expectNoSeriousViolations(page, 'payment-declined');

      await subscribe.click();
      await pay('4242 4242 4242 4242');
      await expect.poll(() => section.getByRole('status').innerText(), poll).toBe('Subscription successful!');
      await expect.poll(() => section.locator('.status').textContent(), poll).toBe('active');
      await expectNoSeriousViolations(page, 'subscription-active');

      await section.getByRole('button', { name: 'Unsubscribe' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Cancel Subscription' });
      await confirm.getByRole('button', { name: 'Yes, Cancel' }).waitFor();
      await expectNoSeriousViolations(page, 'cancel-modal');

      await confirm.getByRole('button', { name: 'Yes, Cancel' }).click();
      await confirm.waitFor({ state: 'detached' });
      await expect.poll(() => section.getByRole('status').innerText(), poll).toContain('Your subscription has been cancelled.');
      await section.getByText(/^Cancelling on /).waitFor();
      await expectNoSeriousViolations(page, 'subscription-cancelling');

      // The money-back guarantee is still offered on a plan set to cancel: its confirmation, then the refunded notice.
      await section.getByRole('button', { name: 'Request a refund' }).click();
      const refund = page.getByRole('alertdialog', { name: 'Request a refund' });
      await refund.getByRole('button', { name: 'Yes, Refund' }).waitFor();
      await expectNoSeriousViolations(page, 'refund-modal');
      await refund.getByRole('button', { name: 'Yes, Refund' }).click();
      await refund.waitFor({ state: 'detached' });
      await expect.poll(() => section.getByRole('status').innerText(), poll).toContain('has been refunded');
      await expectNoSeriousViolations(page, 'subscription-refunded');
    });
  });

  it('the payment modal on a phone', async () => {
    const user = await createUser();
    await withPage(MOBILE, async (page) => {
      const section = await openTab(page, user, 'subscriptions', 'Subscriptions');
      await section.getByRole('button', { name: 'Subscribe to Carnivo Monthly' }).click();
      await page.getByRole('dialog', { name: 'Complete your subscription' }).getByLabel('Card number').waitFor();
      await expectNoSeriousViolations(page, 'mobile-payment-modal');
    });
  });
});

describe('account deletion and the menus', () => {
  it('/delete-profile and its confirmation dialog', async () => {
    const user = await createUser();
    await withPage(DESKTOP, async (page) => {
      await openLoggedIn(page, user, '/delete-profile');
      await page.getByRole('button', { name: 'Delete My Account' }).waitFor();
      await expectNoSeriousViolations(page, 'delete-profile');

      await page.getByRole('button', { name: 'Delete My Account' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Confirm Account Deletion' });
      await dialog.getByRole('button', { name: 'Yes, Delete' }).waitFor();
      await expectNoSeriousViolations(page, 'delete-dialog');

      // The busy dialog, held until axe has looked at it.
      const { release, sent } = await holdRequests(page, '**/api/users-permissions/users/delete-account');
      await dialog.getByRole('button', { name: 'Yes, Delete' }).click();
      await dialog.getByText('Deleting...').waitFor();
      await sent(1);
      await expectNoSeriousViolations(page, 'delete-dialog-busy');
      release();
    });
  });

  it('the slide-in main menu and the profile sections drawer on a phone', async () => {
    const user = await createUser();
    await withPage(MOBILE, async (page) => {
      await openTab(page, user, 'information', 'Information');
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).waitFor({ state: 'visible' });
      await expectNoSeriousViolations(page, 'mobile-main-menu');

      await page.getByRole('button', { name: 'Close menu' }).click();
      await page.getByRole('button', { name: 'Open menu' }).waitFor({ state: 'visible' });
      await page.getByRole('button', { name: 'All sections' }).click();
      await page
        .getByRole('navigation', { name: 'All profile sections' })
        .getByRole('link', { name: 'Interests' })
        .waitFor({ state: 'visible' });
      await expectNoSeriousViolations(page, 'mobile-profile-drawer');
    });
  });
});
