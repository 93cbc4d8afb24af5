import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { browserPerTest, createUser, openLoggedIn, type TestUser, WAIT_MS } from './support/browser';
import { holdRequests } from './support/requests';

// Issue 21, "Dialogs and keyboard": every dialog driven by the keyboard alone. It opens on its
// first field (or its safe button), Tab never reaches the page behind, Escape closes it like its
// Cancel button, and focus goes back to the control that opened it, never to the body.

const poll = { timeout: WAIT_MS, interval: 50 };
const DECLINED_CARD = '4000 0000 0000 0002';
const SUCCESS_CARD = '4242 4242 4242 4242';

let page: Page;
browserPerTest((session) => ({ page } = session));

type Focus = { where: 'dialog' | 'page' | 'browser'; label: string };

/** Where focus is: in an open dialog, on the page, or outside the document (the browser's own UI). */
function focus(p: Page): Promise<Focus> {
  return p.evaluate(() => {
    const active = document.activeElement;
    if (!document.hasFocus()) return { where: 'browser' as const, label: '' };
    const label =
      active?.getAttribute('aria-label') ??
      (active instanceof HTMLInputElement ? (active.labels?.[0]?.textContent ?? '') : (active?.textContent ?? '')).trim();
    const where = active?.closest('dialog[open], [role="dialog"], [role="alertdialog"]') ? ('dialog' as const) : ('page' as const);
    return { where, label: active === document.body ? '<body>' : `${active?.tagName.toLowerCase()} ${label}` };
  });
}

const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

async function expectFocusOn(locator: Locator) {
  await expect.poll(() => isFocused(locator), poll).toBe(true);
}

/** Tabs from wherever focus is to `target`, as a keyboard user reaches it. */
async function tabTo(p: Page, target: Locator) {
  for (let presses = 0; presses < 100; presses += 1) {
    if (await isFocused(target)) return;
    await p.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the control');
}

/**
 * Tabs forwards then backwards twice round the dialog: every stop is one of its controls, or
 * Chromium's own UI, which sits between the last control and the first of any modal <dialog>.
 */
async function expectTabStaysInside(p: Page, controls: string[]) {
  for (const key of ['Tab', 'Shift+Tab']) {
    const seen = new Set<string>();
    for (let presses = 0; presses < 2 * (controls.length + 1); presses += 1) {
      await p.keyboard.press(key);
      const now = await focus(p);
      expect(now.where, `${key} #${presses + 1} reached ${now.label}`).not.toBe('page');
      if (now.where === 'dialog') seen.add(now.label);
    }
    expect([...seen].sort()).toEqual([...controls].sort());
  }
}

type KeyboardDialog = { opener: Locator; dialog: Locator; first: Locator; controls: string[] };

/**
 * Tabs to `opener` and opens the dialog with Enter: focus is on `first`, Tab keeps to the dialog's
 * `controls`; Escape closes it and focus is back on the opener.
 */
async function openThenEscape(p: Page, { opener, dialog, first, controls }: KeyboardDialog) {
  await tabTo(p, opener);
  await p.keyboard.press('Enter');
  await dialog.waitFor();
  await expectFocusOn(first);
  await expectTabStaysInside(p, controls);
  await p.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await expectFocusOn(opener);
}

const CARD_FORM = ['button Close', 'input Card number', 'input Expiry (MM/YY)', 'input CVC', 'button Cancel'];

/** Types a card into the focused card form and submits it with Enter. */
async function typeCard(p: Page, cardNumber: string) {
  await p.keyboard.type(cardNumber);
  await p.keyboard.press('Tab');
  await p.keyboard.type('12/34');
  await p.keyboard.press('Tab');
  await p.keyboard.type('123');
  await p.keyboard.press('Enter');
}

const tab = (p: Page) => p.getByRole('region', { name: 'Subscriptions' });
const subscribeButton = (p: Page) => tab(p).getByRole('button', { name: 'Subscribe to Carnivo Monthly' });
const paymentDialog = (p: Page) => p.getByRole('dialog', { name: 'Complete your subscription' });

async function openSubscriptions(p: Page, user: TestUser) {
  await openLoggedIn(p, user, '/profile?tab=subscriptions');
  await subscribeButton(p).waitFor();
  await expect.poll(() => tab(p).innerText(), poll).toContain('You have no subscription yet.');
}

/** Setup, not under test: subscribes to the monthly plan with the mouse. */
async function subscribe(p: Page) {
  await subscribeButton(p).click();
  const dialog = paymentDialog(p);
  await dialog.getByLabel('Card number').fill(SUCCESS_CARD);
  await dialog.getByLabel('Expiry (MM/YY)').fill('12/34');
  await dialog.getByLabel('CVC').fill('123');
  await dialog.getByRole('button', { name: 'Pay Now' }).click();
  await dialog.waitFor({ state: 'detached' });
  await expect.poll(() => tab(p).locator('.status').textContent(), poll).toBe('active');
}

describe('dialogs by keyboard only', () => {
  it('the payment dialog: opens on the card number, keeps Tab inside, and gives focus back to Subscribe', async () => {
    await openSubscriptions(page, await createUser());
    const dialog = paymentDialog(page);
    const cardNumber = dialog.getByLabel('Card number');
    await openThenEscape(page, { opener: subscribeButton(page), dialog, first: cardNumber, controls: [...CARD_FORM, 'button Pay Now'] });

    // SPEC §4: a declined payment closes the dialog and shows the error; focus goes back to Subscribe.
    await page.keyboard.press('Enter');
    await expectFocusOn(cardNumber);
    await typeCard(page, DECLINED_CARD);
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => tab(page).getByRole('alert').innerText(), poll).toBe('Your card was declined.');
    await expectFocusOn(subscribeButton(page));

    await page.keyboard.press('Enter');
    await expectFocusOn(cardNumber);
    await typeCard(page, SUCCESS_CARD);
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => tab(page).getByRole('status').innerText(), poll).toBe('Subscription successful!');
  });

  it('the card dialog: Escape closes it, a declined card keeps focus inside on the error, Escape is ignored while busy', async () => {
    await openSubscriptions(page, await createUser());
    await subscribe(page);
    const manage = tab(page).getByRole('button', { name: 'Manage billing' });
    const dialog = page.getByRole('dialog', { name: 'Update your card' });

    const cardNumber = dialog.getByLabel('Card number');
    await openThenEscape(page, { opener: manage, dialog, first: cardNumber, controls: [...CARD_FORM, 'button Update card'] });

    await page.keyboard.press('Enter');
    await expectFocusOn(cardNumber);
    const { release, sent } = await holdRequests(page, '**/api/payments/sandbox/card');
    await typeCard(page, DECLINED_CARD);
    await sent(1);
    // Busy: its buttons are disabled, Escape does nothing, focus stays in the dialog.
    await dialog.getByRole('button', { name: 'Updating...' }).waitFor();
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);
    expect((await focus(page)).where).toBe('dialog');
    // Escape again and again: Chromium soon stops letting the page refuse it and closes the dialog;
    // the dialog must come back at once, since the machine has not let it go.
    for (let presses = 0; presses < 3; presses += 1) await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible(), poll).toBe(true);
    await expect.poll(async () => (await focus(page)).where, poll).toBe('dialog');
    await dialog.getByRole('button', { name: 'Updating...' }).waitFor();
    release();

    const error = dialog.getByRole('alert');
    await expect.poll(() => error.innerText(), poll).toBe('Your card was declined.');
    await expectFocusOn(error);
    await expectTabStaysInside(page, [...CARD_FORM, 'button Update card']);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expectFocusOn(manage);

    // A good card: the dialog closes on success and focus is back on "Manage billing".
    await page.keyboard.press('Enter');
    await expectFocusOn(cardNumber);
    await typeCard(page, SUCCESS_CARD);
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => tab(page).getByRole('status').innerText(), poll).toBe('Your card has been updated.');
    await expectFocusOn(manage);
  });

  it('the cancel confirmation: opens on its safe button, Escape keeps the subscription, "Yes, Cancel" cancels it', async () => {
    await openSubscriptions(page, await createUser());
    await subscribe(page);
    const unsubscribe = tab(page).getByRole('button', { name: 'Unsubscribe' });
    const dialog = page.getByRole('alertdialog', { name: 'Cancel Subscription' });

    const keep = dialog.getByRole('button', { name: 'No, Keep Subscription' });
    await openThenEscape(page, {
      opener: unsubscribe,
      dialog,
      first: keep,
      controls: ['button Close', 'button Yes, Cancel', 'button No, Keep Subscription'],
    });
    expect(await tab(page).innerText()).not.toContain('Your subscription has been cancelled.');

    await page.keyboard.press('Enter');
    await expectFocusOn(keep);
    await page.keyboard.press('Shift+Tab');
    await expectFocusOn(dialog.getByRole('button', { name: 'Yes, Cancel' }));
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => tab(page).getByRole('status').innerText(), poll).toContain('Your subscription has been cancelled.');
    // The control that opened the dialog now offers to resume; focus is on it, not on the body.
    await expectFocusOn(tab(page).getByRole('button', { name: 'Resume subscription' }));
  });

  it('the account deletion confirmation: opens on Cancel, keeps Tab inside, Escape gives focus back', async () => {
    const user = await createUser();
    await openLoggedIn(page, user, '/delete-profile');
    const opener = page.getByRole('button', { name: 'Delete My Account' });
    const dialog = page.getByRole('alertdialog', { name: 'Confirm Account Deletion' });

    const cancel = dialog.getByRole('button', { name: 'Cancel' });
    await openThenEscape(page, { opener, dialog, first: cancel, controls: ['button Yes, Delete', 'button Cancel'] });

    await page.keyboard.press('Enter');
    await expectFocusOn(cancel);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await expectFocusOn(opener);
  });
});
