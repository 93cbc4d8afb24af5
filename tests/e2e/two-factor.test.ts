import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  browserPerTest,
  createUser,
  newContext,
  openLoggedIn,
  storedSession,
  WAIT_MS,
  waitForHydration,
  waitForPath,
  type BrowserSession,
} from './support/browser';

// otpauth is a dependency of the server: loaded from there, as an authenticator app would compute the codes.
const serverRequire = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'server', 'package.json'));
const { TOTP, Secret } = serverRequire('otpauth') as {
  TOTP: { generate(options: { secret: unknown; timestamp?: number }): string };
  Secret: { fromBase32(base32: string): unknown };
};

const poll = { timeout: WAIT_MS, interval: 50 };

let page: Page;
let session: BrowserSession;
browserPerTest((opened) => ({ page } = session = opened));

/** A phone's screen (issue 28): the QR code cannot be scanned by the phone showing it. */
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 } as const;

/** The app's code `steps` periods from now (each accepted code spends its step: the next log-in uses a later one). */
const codeAt = (secret: string, steps: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });

const panel = (p: Page) => p.getByRole('region', { name: 'Two-factor authentication' });
const nav = (p: Page) => p.getByRole('navigation', { name: 'Main' });

async function logOut(p: Page) {
  await nav(p).getByRole('button', { name: 'Log Out' }).click();
  await nav(p).getByRole('link', { name: 'Log In', exact: true }).waitFor();
}

/** Log In with the password: the second step appears and nothing is stored yet. */
async function passwordStep(p: Page, user: { username: string; password: string }) {
  await p.goto('/login');
  await waitForHydration(p);
  await p.getByRole('textbox', { name: 'Email or Username' }).fill(user.username);
  await p.getByLabel('Password', { exact: true }).fill(user.password);
  await p.getByRole('button', { name: 'Log In' }).click();
  const step = p.getByRole('form', { name: 'Two-factor authentication' });
  await step.waitFor();
  await p.getByText('Enter the 6-digit code from your authenticator app, or one of your recovery codes.').waitFor();
  expect(await storedSession(p)).toEqual({ jwt: null, userId: null });
  return step;
}

async function enterCode(p: Page, code: string) {
  const field = p.getByRole('textbox', { name: 'Authentication code' });
  // A phone's number pad and its received code first; 'Use a recovery code' gives the letters.
  expect([await field.getAttribute('inputmode'), await field.getAttribute('autocomplete')]).toEqual(['numeric', 'one-time-code']);
  await field.fill(code);
  await p.getByRole('button', { name: 'Verify' }).click();
}

describe('two-factor authentication with an authenticator app', () => {
  it('enrols from Security, then a log-in needs the password and a code, or a recovery code once', async () => {
    const user = await createUser();
    await openLoggedIn(page, user, '/profile?tab=security');

    // Enrol: the QR code (rendered by the server) and the secret as text; the first code turns it on.
    await panel(page).getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const qr = panel(page).getByRole('img', { name: 'QR code for your authenticator app' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    const secret = (await panel(page).getByLabel('Secret key').innerText()).replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await panel(page).getByRole('textbox', { name: '6-digit code' }).fill(codeAt(secret, 0));
    await panel(page).getByRole('button', { name: 'Turn on' }).click();

    const list = panel(page).getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    const recoveryCodes = (await list.getByRole('listitem').allInnerTexts()).map((code) => code.trim());
    expect(recoveryCodes).toHaveLength(10);
    await panel(page).getByRole('button', { name: 'I have saved them' }).click();
    await panel(page).getByText('Two-factor authentication is on. 10 recovery codes left.').waitFor();
    expect(await list.count()).toBe(0);

    // Log out, log in: the password alone gives no session; a wrong code says so; the right one signs in.
    await logOut(page);
    await passwordStep(page, user);
    await enterCode(page, '000000' === codeAt(secret, 1) ? '111111' : '000000');
    await expect.poll(() => page.getByRole('alert').innerText(), poll).toBe('That code is not right. Try again.');
    expect((await storedSession(page)).jwt).toBeNull();
    await enterCode(page, codeAt(secret, 1));
    await waitForPath(page, '/');
    await nav(page).getByRole('button', { name: 'Log Out' }).waitFor();
    await expect.poll(async () => (await storedSession(page)).userId, poll).toBe(String(user.id));

    // A recovery code works once.
    await logOut(page);
    await passwordStep(page, user);
    await enterCode(page, recoveryCodes[0]);
    await waitForPath(page, '/');
    await expect.poll(async () => (await storedSession(page)).userId, poll).toBe(String(user.id));

    await logOut(page);
    await passwordStep(page, user);
    await enterCode(page, recoveryCodes[0]);
    await expect.poll(() => page.getByRole('alert').innerText(), poll).toBe('That code is not right. Try again.');
    expect((await storedSession(page)).jwt).toBeNull();

    // Four more wrong codes burn the ticket (five per ticket): said as it is, not "expired".
    const wrong = (i: number) => String((Number(codeAt(secret, 1)) + 1 + i) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 4; i += 1) {
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/two-factor');
      await enterCode(page, wrong(i));
      expect((await answered).status()).toBe(400);
      await expect.poll(() => page.getByRole('alert').innerText(), poll).toBe('That code is not right. Try again.');
    }
    await enterCode(page, codeAt(secret, 1));
    await expect.poll(() => page.getByRole('alert').innerText(), poll).toBe('Too many wrong codes. Please log in again.');
    expect((await storedSession(page)).jwt).toBeNull();

    // Back returns to the password form, the identifier still typed.
    await page.getByRole('button', { name: 'Back' }).click();
    const identifier = page.getByRole('textbox', { name: 'Email or Username' });
    await identifier.waitFor();
    expect(await identifier.inputValue()).toBe(user.username);
  });

  it('on a phone: the otpauth link, the key in groups with Copy, the recovery codes downloaded and copied, then on', async () => {
    const user = await createUser();
    const phone = await newContext(session.browser, { ...PHONE, permissions: ['clipboard-read', 'clipboard-write'] });
    try {
      const p = await phone.newPage();
      await openLoggedIn(p, user, '/profile?tab=security');
      await panel(p).getByRole('button', { name: 'Set up two-factor authentication' }).tap();

      // The link opens the authenticator app on this phone with the key and the account in it.
      const link = panel(p).getByRole('link', { name: 'Open in authenticator app' });
      await link.waitFor();
      const href = (await link.getAttribute('href')) ?? '';
      expect(href).toMatch(/^otpauth:\/\/totp\/Carnivo:/);

      // The key, spaced in groups of four; apps take it without the spaces, as Copy gives it.
      const shown = (await panel(p).getByLabel('Secret key').innerText()).trim();
      expect(shown).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
      const secret = shown.replace(/ /g, '');
      expect(new URL(href).searchParams.get('secret')).toBe(secret);
      await panel(p).getByRole('button', { name: 'Copy key' }).tap();
      await expect.poll(() => panel(p).getByRole('status').textContent(), poll).toBe('Key copied.');
      expect(await p.evaluate(() => navigator.clipboard.readText())).toBe(secret);

      // The code field brings up the number pad and offers a code the phone received.
      const code = panel(p).getByRole('textbox', { name: '6-digit code' });
      expect(await code.getAttribute('inputmode')).toBe('numeric');
      expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
      // Nothing wider than the phone.
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.viewport.width);

      await code.fill(codeAt(secret, 0));
      await panel(p).getByRole('button', { name: 'Turn on' }).tap();
      const list = panel(p).getByRole('list', { name: 'Recovery codes' });
      await list.waitFor();
      const recoveryCodes = (await list.getByRole('listitem').allInnerTexts()).map((text) => text.trim());
      expect(recoveryCodes).toHaveLength(10);

      // Download: a text file with every code; Copy: the same text on the clipboard.
      const [download] = await Promise.all([p.waitForEvent('download'), panel(p).getByRole('button', { name: 'Download' }).tap()]);
      expect(download.suggestedFilename()).toBe('carnivo-recovery-codes.txt');
      const file = fs.readFileSync((await download.path())!, 'utf8');
      expect(file.split('\n').filter((line) => recoveryCodes.includes(line))).toEqual(recoveryCodes);
      await panel(p).getByRole('button', { name: 'Copy', exact: true }).tap();
      await expect.poll(() => panel(p).getByRole('status').textContent(), poll).toBe('Recovery codes copied.');
      expect(await p.evaluate(() => navigator.clipboard.readText())).toBe(file);
      expect(await panel(p).getByRole('button', { name: 'Print' }).isVisible()).toBe(true);

      await panel(p).getByRole('button', { name: 'I have saved them' }).tap();
      await panel(p).getByText('Two-factor authentication is on. 10 recovery codes left.').waitFor();
      // On: each form under its heading, each code field named apart, the number pad first.
      for (const [group, label] of [
        ['Get new recovery codes', 'Code for new recovery codes'],
        ['Turn off', 'Code to turn off'],
      ]) {
        const field = panel(p).getByRole('group', { name: group }).getByRole('textbox', { name: label });
        expect(await field.getAttribute('inputmode')).toBe('numeric');
      }
    } finally {
      await phone.close();
    }
  });
});
