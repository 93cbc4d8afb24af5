import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserPerTest, createUser, openLoggedIn, storedSession, WAIT_MS, waitForHydration, waitForPath } from './support/browser';

// otpauth is a dependency of the server: loaded from there, as an authenticator app would compute the codes.
const serverRequire = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'server', 'package.json'));
const { TOTP, Secret } = serverRequire('otpauth') as {
  TOTP: { generate(options: { secret: unknown; timestamp?: number }): string };
  Secret: { fromBase32(base32: string): unknown };
};

const poll = { timeout: WAIT_MS, interval: 50 };

let page: Page;
browserPerTest((session) => ({ page } = session));

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
  await p.getByRole('textbox', { name: 'Authentication code' }).fill(code);
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
    const secret = (await panel(page).getByLabel('Secret key').innerText()).trim();
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

    // Back returns to the password form.
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('textbox', { name: 'Email or Username' }).waitFor();
  });
});
