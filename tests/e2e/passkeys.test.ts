import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { passkeyMessages, type PasskeySummary } from '../../server/src/contract/passkeys';
import { DESKTOP, WAIT_MS, closeBrowser, launchBrowser, newCredentials, waitFor, waitForHydration } from './support/browser';
import { freePort, startE2eServer, type E2eServer } from './support/server';

/**
 * Passkeys end to end in Chromium with its virtual authenticator (CDP WebAuthn domain): add one in
 * Security, log out, sign in with it, remove it. WebAuthn needs a domain as relying-party id (an IP
 * address is none), so this file runs its own server on http://localhost (a secure context) with
 * PUBLIC_URL on the same origin.
 */

let server: E2eServer;
let origin: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let cdp: CDPSession;

beforeAll(async () => {
  const port = await freePort();
  origin = `http://localhost:${port}`;
  server = await startE2eServer({ PUBLIC_URL: origin }, { port });
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

type Member = { jwt: string; id: number };

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
  const res = await api<{ jwt: string; user: { id: number } }>(null, 'POST', '/api/auth/local/register', newCredentials());
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { jwt: res.body.jwt, id: res.body.user.id };
}

/** A platform authenticator that holds discoverable passkeys and verifies its user (fingerprint, PIN). */
async function addVirtualAuthenticator(): Promise<string> {
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return authenticatorId;
}

const passkeysRegion = () => page.getByRole('region', { name: 'Passkeys' });
const storedJwt = () => page.evaluate(() => window.localStorage.getItem('jwt'));

async function openSecurity(member: Member) {
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  await page.evaluate(({ jwt, id }) => {
    window.localStorage.setItem('jwt', jwt);
    window.localStorage.setItem('userId', String(id));
  }, member);
  await page.goto('/profile?tab=security', { waitUntil: 'domcontentloaded' });
  await passkeysRegion().waitFor();
}

/** Logs out from the bar, then opens /login (where the identifier field asks for passkey suggestions at once). */
async function logOut() {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log Out' }).click();
  await waitFor(async () => (await storedJwt()) === null, 'the session forgotten');
  await page.goto('/login', { waitUntil: 'domcontentloaded' });
}

/** A session of `member` stored by the page and accepted by the server; the page has left /login. */
async function expectSignedIn(member: Member): Promise<string> {
  await waitFor(async () => (await storedJwt()) !== null, 'a session from the passkey');
  await waitFor(() => new URL(page.url()).pathname !== '/login', 'leaving /login');
  const jwt = (await storedJwt())!;
  const me = await api<{ id: number }>(jwt, 'GET', '/api/users/me');
  expect(me.status).toBe(200);
  expect(me.body.id).toBe(member.id);
  return jwt;
}

describe('passkeys in Chromium (virtual authenticator)', () => {
  it('adds a passkey in Security, signs in with it after logging out, and removes it', async () => {
    const authenticatorId = await addVirtualAuthenticator();
    const member = await signUp();
    await openSecurity(member);
    const region = passkeysRegion();
    await region.getByText('You have no passkeys yet.').waitFor();

    await region.getByLabel('Passkey name (optional)').fill('E2E laptop');
    await region.getByRole('button', { name: 'Add a passkey' }).click();
    await region.getByRole('status').filter({ hasText: passkeyMessages.added }).waitFor();
    const item = region.getByRole('listitem').filter({ hasText: 'E2E laptop' });
    await item.waitFor();
    expect(await item.innerText()).toContain('Never used');
    // The authenticator holds it as a discoverable passkey for this site, and the server lists it.
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);
    expect(credentials[0]!.rpId).toBe('localhost');
    const listed = await api<{ data: PasskeySummary[] }>(member.jwt, 'GET', '/api/passkeys');
    expect(listed.body.data.map((passkey) => passkey.name)).toEqual(['E2E laptop']);

    // Autofill: the identifier field asks for the site's passkeys as /login opens; Chromium's virtual
    // authenticator answers such a request at once, as a member picking the suggestion would.
    await logOut();
    await expectSignedIn(member);
    const [credential] = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    expect(credential!.signCount).toBeGreaterThan(0);

    // The button: no authenticator while /login opens (so the suggestions wait), then the dialog finds it.
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    await logOut();
    await waitForHydration(page);
    expect(await page.getByRole('textbox', { name: 'Email or Username' }).getAttribute('autocomplete')).toBe('username webauthn');
    // The dialog's challenge is held until the new authenticator holds the passkey: an authenticator asked while
    // still empty answers "not allowed" at once, so the dialog must not reach it between the two calls below.
    let releaseChallenge = () => {};
    const challengeHeld = new Promise<void>((resolve) => (releaseChallenge = resolve));
    await page.route('**/api/auth/passkey/options', async (route) => {
      await challengeHeld;
      // The suggestions' own request, if still out, was cancelled by the click: nothing left to answer.
      await route.continue().catch(() => {});
    });
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('button', { name: 'Waiting for your passkey...' }).waitFor();
    const secondAuthenticator = await addVirtualAuthenticator();
    await cdp.send('WebAuthn.addCredential', { authenticatorId: secondAuthenticator, credential: credential! });
    releaseChallenge();
    const jwt = await expectSignedIn(member);
    await page.unroute('**/api/auth/passkey/options');

    await openSecurity({ jwt, id: member.id });
    await item.filter({ hasText: 'Last used' }).waitFor();
    await item.getByRole('button', { name: 'Remove E2E laptop' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Remove passkey' });
    await dialog.getByRole('button', { name: 'Yes, Remove' }).click();
    await region.getByRole('status').filter({ hasText: passkeyMessages.removed }).waitFor();
    await region.getByText('You have no passkeys yet.').waitFor();
    expect((await api<{ data: PasskeySummary[] }>(jwt, 'GET', '/api/passkeys')).body.data).toEqual([]);

    // The authenticator still holds the key (and offers it at once), but the site no longer knows it.
    await logOut();
    await page.getByRole('alert').filter({ hasText: passkeyMessages.unknownPasskey }).waitFor();
    expect(await storedJwt()).toBeNull();
  });

  it("says so calmly when the member doesn't confirm (an authenticator that can't verify them)", async () => {
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: false,
        automaticPresenceSimulation: true,
      },
    });
    expect(authenticatorId).toBeTruthy();
    const member = await signUp();
    await openSecurity(member);
    const region = passkeysRegion();
    await region.getByRole('button', { name: 'Add a passkey' }).click();
    await region.getByRole('status').filter({ hasText: passkeyMessages.addCancelled }).waitFor({ timeout: 60_000 });
    expect((await api<{ data: PasskeySummary[] }>(member.jwt, 'GET', '/api/passkeys')).body.data).toEqual([]);
  }, 90_000);
});
