import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { passkeyMessages, type PasskeySummary } from '../../server/src/contract/passkeys';
import { stepUpMessages } from '../../server/src/contract/stepUp';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DESKTOP, WAIT_MS, closeBrowser, launchBrowser, newCredentials, waitFor } from './support/browser';
import { freePort, startE2eServer, type E2eServer } from './support/server';

/**
 * Step-up in Chromium (docs/security.md#step-up): a session whose proof of presence is older than the
 * window is asked "Confirm it's you" before adding a passkey and before deleting the account; the
 * dialog keeps the member's place and, once the password is given, the action carries on. The window
 * is short here (STEP_UP_WINDOW_SEC), so a session ages in seconds. Own server on http://localhost:
 * WebAuthn needs a domain as relying-party id.
 */

// Long enough for sign-up, set-up and a first code while another browser file runs beside this one.
const WINDOW_SEC = 6;

// otpauth is a dependency of the server: loaded from there, as an authenticator app would compute the codes.
const serverRequire = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'server', 'package.json'));
const { TOTP, Secret } = serverRequire('otpauth') as {
  TOTP: { generate(options: { secret: unknown; timestamp?: number }): string };
  Secret: { fromBase32(base32: string): unknown };
};
/** The app's code `steps` periods from now. */
const codeAt = (secret: string, steps = 0) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });
/** Clear of a 30-second step's end by `margin`, so the code typed is the code checked. */
async function awayFromStepEdge(margin = 6_000) {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < margin) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

let server: E2eServer;
let origin: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let cdp: CDPSession;

beforeAll(async () => {
  const port = await freePort();
  origin = `http://localhost:${port}`;
  server = await startE2eServer({ PUBLIC_URL: origin, STEP_UP_WINDOW_SEC: String(WINDOW_SEC) }, { port });
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await closeBrowser(browser);
  await server?.stop();
});
beforeEach(async () => {
  context = await browser.newContext({ baseURL: origin, viewport: DESKTOP });
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(WAIT_MS);
  page = await context.newPage();
  cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
});
afterEach(async () => {
  await context?.close();
});

type Member = { jwt: string; id: number; password: string; username: string };

async function api<T>(jwt: string | null, method: string, pathname: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.baseUrl}${pathname}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(jwt ? { Authorization: `Bearer ${jwt}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(WAIT_MS),
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function signUp(): Promise<Member> {
  const credentials = newCredentials();
  const res = await api<{ jwt: string; user: { id: number } }>(null, 'POST', '/api/auth/local/register', credentials);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { jwt: res.body.jwt, id: res.body.user.id, password: credentials.password, username: credentials.username };
}

async function openAs(member: Member, path: string) {
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  await page.evaluate(({ jwt, id }) => {
    window.localStorage.setItem('jwt', jwt);
    window.localStorage.setItem('userId', String(id));
  }, member);
  await page.goto(path, { waitUntil: 'domcontentloaded' });
}

/** The session's proof (its sign-up) grows older than the window. */
const outlastWindow = () => new Promise((resolve) => setTimeout(resolve, (WINDOW_SEC + 1) * 1000));

const stepUpDialog = () => page.getByRole('dialog', { name: "Confirm it's you" });

/** The dialog asks; a wrong password is refused in it; the right one closes it. */
async function confirmWithPassword(member: Member) {
  const dialog = stepUpDialog();
  await dialog.waitFor();
  await dialog.getByText(stepUpMessages.required).waitFor();
  const field = dialog.getByLabel('Password', { exact: true });
  // The field has the focus, as in every dialog of the site.
  await waitFor(() => field.evaluate((input) => input === document.activeElement), 'the Password field focused');
  await field.fill('not-the-password');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.getByRole('alert').filter({ hasText: stepUpMessages.wrongPassword }).waitFor();
  await field.fill(member.password);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('step-up in Chromium', () => {
  it('asks before adding a passkey, then adds it', async () => {
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const member = await signUp();
    await openAs(member, '/profile?tab=security');
    const region = page.getByRole('region', { name: 'Passkeys' });
    await region.getByText('You have no passkeys yet.').waitFor();
    await outlastWindow();

    await region.getByLabel('Passkey name (optional)').fill('Step-up laptop');
    await region.getByRole('button', { name: 'Add a passkey' }).click();
    await confirmWithPassword(member);
    // The member's place is kept: the same tab, the name still typed, and the action carries on.
    expect(new URL(page.url()).search).toBe('?tab=security');
    await region.getByRole('status').filter({ hasText: passkeyMessages.added }).waitFor();
    await region.getByRole('listitem').filter({ hasText: 'Step-up laptop' }).waitFor();
    const listed = await api<{ data: PasskeySummary[] }>(member.jwt, 'GET', '/api/passkeys');
    expect(listed.body.data.map((passkey) => passkey.name)).toEqual(['Step-up laptop']);
  }, 60_000);

  it('asks before deleting the account; Cancel deletes nothing, the password carries on with the deletion', async () => {
    const member = await signUp();
    await openAs(member, '/delete-profile');
    await page.getByRole('heading', { level: 1, name: 'Delete Account' }).waitFor();
    await outlastWindow();

    const confirmation = page.getByRole('alertdialog', { name: 'Confirm Account Deletion' });
    await page.getByRole('button', { name: 'Delete My Account' }).click();
    await confirmation.getByRole('button', { name: 'Yes, Delete' }).click();
    // Cancel: nothing deleted, and the page says why.
    await stepUpDialog().getByRole('button', { name: 'Cancel' }).click();
    await stepUpDialog().waitFor({ state: 'detached' });
    await page.getByRole('alert').filter({ hasText: stepUpMessages.required }).waitFor();
    expect((await api(member.jwt, 'GET', '/api/users/me')).status).toBe(200);

    await page.getByRole('button', { name: 'Delete My Account' }).click();
    await confirmation.getByRole('button', { name: 'Yes, Delete' }).click();
    await confirmWithPassword(member);
    await waitFor(() => new URL(page.url()).pathname === '/login', 'the /login page');
    await page.getByRole('status').filter({ hasText: 'Your account has been deleted successfully.' }).waitFor();
    // The account is gone: its password logs in no more.
    const logIn = await api<{ error?: { message: string } }>(null, 'POST', '/api/auth/local', {
      identifier: member.username,
      password: member.password,
    });
    expect(logIn.status).toBe(400);
  }, 60_000);

  it('with two-factor on and the window past, new recovery codes and turning it off need only their code: no dialog', async () => {
    // Any wait comes before the sign-up: enabling needs a session younger than the window, and waiting out
    // a step's edge (up to 6 s) between the two made it a step-up (403).
    await awayFromStepEdge(15_000);
    const member = await signUp();
    const setup = await api<{ secret: string }>(member.jwt, 'POST', '/api/two-factor/setup');
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    expect((await api(member.jwt, 'POST', '/api/two-factor/enable', { code: codeAt(setup.body.secret) })).status).toBe(200);
    await openAs(member, '/profile?tab=security');
    const region = page.getByRole('region', { name: 'Two-factor authentication' });
    await region.getByText('Two-factor authentication is on. 10 recovery codes left.').waitFor();
    await outlastWindow();

    // The code enable spent is a replay now: the next step's code.
    await awayFromStepEdge();
    await region.getByRole('textbox', { name: 'Code for new recovery codes' }).fill(codeAt(setup.body.secret, 1));
    await region.getByRole('button', { name: 'Get new recovery codes' }).click();
    await region.getByRole('button', { name: 'I have saved them' }).waitFor();
    const recoveryCodes = (await region.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allInnerTexts()).map((code) =>
      code.trim(),
    );
    expect(recoveryCodes).toHaveLength(10);
    await region.getByRole('button', { name: 'I have saved them' }).click();
    await region.getByText('Two-factor authentication is on. 10 recovery codes left.').waitFor();
    expect(await stepUpDialog().count()).toBe(0);

    await outlastWindow();
    const off = region.getByRole('group', { name: 'Turn off' });
    await off.getByLabel('Password', { exact: true }).fill(member.password);
    // A new recovery code (the app's next step may be the one just spent).
    await off.getByRole('textbox', { name: 'Code to turn off' }).fill(recoveryCodes[0]!);
    await off.getByRole('button', { name: 'Turn off two-factor authentication' }).click();
    await region.getByRole('button', { name: 'Set up two-factor authentication' }).waitFor();
    expect(await stepUpDialog().count()).toBe(0);
    // Re-read on the server: off.
    expect((await api<{ enabled: boolean }>(member.jwt, 'GET', '/api/two-factor')).body).toMatchObject({ enabled: false });
  }, 90_000);
});
