import { deflateSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  DESKTOP,
  MOBILE,
  WAIT_MS,
  baseUrl,
  closeBrowser,
  createUser,
  launchBrowser,
  newContext,
  openLoggedIn,
  screenshot,
  storedSession,
  waitForPath,
  type TestUser,
} from './support/browser';

const poll = { timeout: WAIT_MS, interval: 50 };

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});

/** Users whose uploads must go: deleting the account removes its picture from server/public/uploads. */
const withUploads: TestUser[] = [];

afterAll(async () => {
  await closeBrowser(browser);
  for (const user of withUploads) {
    await fetch(`${baseUrl()}/api/users-permissions/users/delete-account`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${user.jwt}` },
      signal: AbortSignal.timeout(WAIT_MS),
    });
  }
});

beforeEach(async () => {
  context = await newContext(browser);
  page = await context.newPage();
});

afterEach(async () => {
  await context?.close();
});

// --- helpers --------------------------------------------------------------------------------

interface Me {
  username: string;
  email: string;
  diet_preference: string;
  goal_weight: number | null;
  goal_reminder: string;
  personal_goal_note: string | null;
  ingredients: { id: number; ingredient_name: string }[];
  bmi: { currentWeight: number; height: number; Gender: string; date_of_birth: string | null; idealBmiWeight: string | null } | null;
  profile_picture: { id: number; url: string; mime: string } | null;
}

async function me(user: TestUser): Promise<Me> {
  const response = await fetch(`${baseUrl()}/api/users/me?populate=*`, {
    headers: { Authorization: `Bearer ${user.jwt}` },
    signal: AbortSignal.timeout(WAIT_MS),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Me;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

/** A real, solid-colour RGB PNG (no image library needed). */
function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const region = (p: Page, name: string) => p.getByRole('region', { name, exact: true });

async function openTab(p: Page, user: TestUser, tab: string, regionName: string): Promise<Locator> {
  await openLoggedIn(p, user, `/profile?tab=${tab}`);
  await p.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
  const section = region(p, regionName);
  await section.waitFor();
  return section;
}

/** Saves the open form of a section and waits for its success message. */
async function saveSection(section: Locator, p: Page, notice = 'Profile updated successfully!') {
  const saved = p.waitForResponse((r) => r.request().method() === 'PUT' && /\/api\/users\/\d+$/.test(new URL(r.url()).pathname));
  await section.getByRole('button', { name: 'Save', exact: true }).click();
  expect((await saved).status()).toBe(200);
  await expect.poll(() => section.getByRole('status').textContent(), poll).toBe(notice);
}

/** The notice of a save that asked for a new address (issue 23: the address waits for its link). */
const linkSent = (email: string) => `We sent a confirmation link to ${email}. Your email changes when you open it (within 24 hours).`;

/** True when the image has loaded real pixels. */
const loaded = (image: Locator) =>
  image.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0);

// --- sections ---------------------------------------------------------------------------------

describe('Profile sections persist after a reload', () => {
  it('Information: edits every field, shows the BMI, and keeps them after a reload', async () => {
    const user = await createUser();
    const section = await openTab(page, user, 'information', 'Information');
    await section.getByRole('button', { name: 'Edit Profile' }).click();

    const newName = `${user.username}x`;
    const newEmail = `new_${user.email}`;
    await section.getByRole('textbox', { name: 'Username' }).fill(newName);
    await section.getByRole('textbox', { name: 'Email' }).fill(newEmail);
    await section.getByLabel('Date of Birth').fill('1990-05-01');
    await section.getByRole('combobox', { name: 'Gender' }).selectOption('Female');
    await section.getByRole('textbox', { name: 'Height (cm)' }).fill('170');
    await section.getByRole('textbox', { name: 'Weight (kg)' }).fill('80');
    // A new address needs the current password (a stolen session alone cannot move the e-mail).
    await section.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(() => section.getByRole('alert').textContent(), poll)
      .toBe('Please enter your current password to change your email.');
    await section.getByLabel('Current password', { exact: true }).fill(user.password);
    await saveSection(section, page, linkSent(newEmail));
    // Asking for a new address ends no session (tests/e2e/email-change.test.ts opens the link).
    expect((await storedSession(page)).jwt).toBe(user.jwt);

    await page.reload({ waitUntil: 'domcontentloaded' });
    const view = region(page, 'Information');
    // 80 / 1.7² = 27.7 (Overweight); ideal = 21.5 × 1.7² = 62.1 kg.
    await expect.poll(() => view.innerText(), poll).toContain('27.7');
    const text = await view.innerText();
    for (const expected of [newName, user.email, `${newEmail}: waiting`, 'Female', '170 cm', '80 kg', '62.1 kg', 'Overweight']) {
      expect(text).toContain(expected);
    }
    expect(text).toContain('1990');
    await screenshot(page, 'profile-information-saved');

    expect(await me(user)).toMatchObject({
      username: newName,
      email: user.email,
      pending_email: newEmail,
      bmi: { currentWeight: 80, height: 170, Gender: 'Female', date_of_birth: '1990-05-01', idealBmiWeight: '62.1' },
    });
  });

  it('Information: shows the form rules and the server refusal (taken username) in an alert', async () => {
    const [user, other] = [await createUser(), await createUser()];
    const section = await openTab(page, user, 'information', 'Information');
    await section.getByRole('button', { name: 'Edit Profile' }).click();
    await section.getByRole('textbox', { name: 'Height (cm)' }).fill('300');
    await section.getByRole('textbox', { name: 'Weight (kg)' }).fill('80');
    await section.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => section.getByRole('alert').textContent(), poll).toBe('Height must be between 100-250 cm');

    await section.getByRole('textbox', { name: 'Height (cm)' }).fill('180');
    await section.getByRole('textbox', { name: 'Username' }).fill(other.username);
    await section.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => section.getByRole('alert').textContent(), poll).toBe('Username already taken');
    expect((await me(user)).username).toBe(user.username);
  });

  it('Information: a new member changes only the e-mail; the notice comes with the waiting address (issues 21, 23)', async () => {
    const user = await createUser();
    const section = await openTab(page, user, 'information', 'Information');
    await expect.poll(() => section.innerText(), poll).toContain('Add your height and weight');
    const newEmail = `new_${user.email}`;
    // What the card shows at the moment the notice first appears.
    await page.evaluate((notice) => {
      const seen = window as unknown as { shownWithNotice?: string };
      const observer = new MutationObserver(() => {
        const card = document.querySelector('section[aria-label="Information"]');
        if (card?.querySelector('[role="status"]')?.textContent === notice) {
          seen.shownWithNotice = card.textContent ?? '';
          observer.disconnect();
        }
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    }, linkSent(newEmail));

    await section.getByRole('button', { name: 'Edit Profile' }).click();
    expect(await section.getByRole('textbox', { name: 'Height (cm)' }).inputValue()).toBe('');
    await section.getByRole('textbox', { name: 'Email' }).fill(newEmail);
    await section.getByLabel('Current password', { exact: true }).fill(user.password);
    await saveSection(section, page, linkSent(newEmail));

    const shownWithNotice = await page.evaluate(() => (window as unknown as { shownWithNotice?: string }).shownWithNotice);
    // The card's text runs label into value: 'Email' then the address; the new one waits for its link.
    expect(shownWithNotice).toContain(`Email${user.email}`);
    expect(shownWithNotice).toContain(`New Email${newEmail}: waiting`);
    expect(await me(user)).toMatchObject({ email: user.email, pending_email: newEmail, bmi: { height: null, currentWeight: null } });
  });

  it('Information: each card has one heading, and Units is said once (issue 21)', async () => {
    const user = await createUser();
    await openTab(page, user, 'information', 'Information');
    const cards = ['Information', 'Units', 'Password', 'Your data'];
    await region(page, 'Your data').waitFor();
    expect(await page.getByRole('heading', { level: 2 }).allInnerTexts()).toEqual(cards);
    for (const name of cards) expect(await region(page, name).getByRole('heading').allInnerTexts()).toEqual([name]);
    const units = region(page, 'Units');
    expect(await units.getByText('Units', { exact: true }).count()).toBe(1);
    // The choice is still named, by the card's heading.
    expect(await units.getByRole('group', { name: 'Units' }).getByRole('radio').count()).toBe(2);
  });

  it('Diet: switches to Ketovore', async () => {
    const user = await createUser();
    const section = await openTab(page, user, 'diet', 'Diet');
    await expect.poll(() => section.innerText(), poll).toContain('Current diet: Carnivore');
    await section.getByRole('button', { name: 'Edit Diet' }).click();
    await section.getByRole('combobox', { name: 'Diet Preference' }).selectOption('Ketovore');
    await saveSection(section, page);

    await page.reload({ waitUntil: 'domcontentloaded' });
    await expect.poll(() => region(page, 'Diet').innerText(), poll).toContain('Current diet: Ketovore');
    expect((await me(user)).diet_preference).toBe('Ketovore');
  });

  it('Interests: ticks Eggs, Cheese and Milk', async () => {
    const user = await createUser();
    const section = await openTab(page, user, 'interests', 'Interests');
    await section.getByRole('button', { name: 'Edit Interests' }).click();
    for (const name of ['Eggs', 'Honey', 'Cheese', 'Yogurt', 'Butter', 'Milk']) {
      expect(await section.getByRole('checkbox', { name }).isChecked(), name).toBe(false);
    }
    for (const name of ['Eggs', 'Cheese', 'Milk']) await section.getByRole('checkbox', { name }).check();
    await saveSection(section, page);

    await page.reload({ waitUntil: 'domcontentloaded' });
    const chips = region(page, 'Interests').getByRole('list', { name: 'Your food interests' });
    await expect.poll(() => chips.getByRole('listitem').allTextContents(), poll).toEqual(['Eggs', 'Cheese', 'Milk']);
    expect((await me(user)).ingredients.map((i) => i.ingredient_name).sort()).toEqual(['Cheese', 'Eggs', 'Milk']);

    await region(page, 'Interests').getByRole('button', { name: 'Edit Interests' }).click();
    expect(await region(page, 'Interests').getByRole('checkbox', { name: 'Cheese' }).isChecked()).toBe(true);
    expect(await region(page, 'Interests').getByRole('checkbox', { name: 'Honey' }).isChecked()).toBe(false);
  });

  it('Goals: goal weight against the current weight, note and reminder', async () => {
    const user = await createUser();
    const info = await openTab(page, user, 'information', 'Information');
    await info.getByRole('button', { name: 'Edit Profile' }).click();
    await info.getByRole('textbox', { name: 'Height (cm)' }).fill('180');
    await info.getByRole('textbox', { name: 'Weight (kg)' }).fill('90');
    await saveSection(info, page);

    const section = await openTab(page, user, 'goals', 'Goals');
    await section.getByRole('button', { name: 'Edit Goals' }).click();
    await section.getByRole('textbox', { name: 'Goal Weight (kg)' }).fill('82.5');
    await section.getByRole('textbox', { name: 'Personal Note' }).fill('Fit into my old jeans');
    await section.getByRole('combobox', { name: 'Reminder Frequency' }).selectOption('weekly');
    await saveSection(section, page);

    await page.reload({ waitUntil: 'domcontentloaded' });
    const view = region(page, 'Goals');
    await expect.poll(() => view.innerText(), poll).toContain('7.5 kg to lose');
    const text = await view.innerText();
    for (const expected of ['82.5 kg', '90 kg', 'Fit into my old jeans', 'Weekly']) expect(text).toContain(expected);
    expect(await me(user)).toMatchObject({ goal_weight: 82.5, goal_reminder: 'weekly', personal_goal_note: 'Fit into my old jeans' });

    // An out-of-range goal is refused with the form's message.
    await view.getByRole('button', { name: 'Edit Goals' }).click();
    await view.getByRole('textbox', { name: 'Goal Weight (kg)' }).fill('20');
    await view.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => view.getByRole('alert').textContent(), poll).toBe('Goal weight must be between 30-300 kg');
  });
});

// --- picture --------------------------------------------------------------------------------

describe('Profile picture', () => {
  it('uploads a PNG, shows it, and keeps it after a reload', async () => {
    const user = await createUser();
    withUploads.push(user);
    const section = await openTab(page, user, 'information', 'Profile picture');
    await section.getByRole('button', { name: 'Upload Photo' }).waitFor();

    await section.getByLabel('Choose a profile picture').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: solidPng(48, 48, [178, 34, 34]),
    });
    const preview = section.getByRole('img', { name: 'Preview of your new profile picture' });
    await preview.waitFor();
    await expect.poll(() => loaded(preview), poll).toBe(true);
    await section.getByRole('button', { name: 'Cancel' }).waitFor();

    // Held until the busy state has been seen.
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/upload', async (route) => {
      await released;
      await route.continue();
    });
    const uploaded = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/upload');
    await section.getByRole('button', { name: 'Save Photo' }).click();
    const busy = section.getByRole('button', { name: 'Uploading...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    release();
    expect((await uploaded).status()).toBe(201);
    await expect.poll(() => section.getByRole('status').textContent(), poll).toBe('Profile picture updated successfully!');

    const picture = section.getByRole('img', { name: 'Your profile picture' });
    await expect
      .poll(async () => new URL((await picture.getAttribute('src')) ?? '', baseUrl()).pathname, poll)
      .toMatch(/^\/uploads\/.+\.png$/);
    await expect.poll(() => loaded(picture), poll).toBe(true);
    await screenshot(page, 'profile-picture-uploaded');

    await page.reload({ waitUntil: 'domcontentloaded' });
    const afterReload = region(page, 'Profile picture');
    await afterReload.getByRole('button', { name: 'Change Photo' }).waitFor();
    const stored = (await me(user)).profile_picture!;
    expect(stored.mime).toBe('image/png');
    await expect
      .poll(
        async () =>
          new URL((await afterReload.getByRole('img', { name: 'Your profile picture' }).getAttribute('src')) ?? '', baseUrl()).pathname,
        poll,
      )
      .toBe(stored.url);
    await expect.poll(() => loaded(afterReload.getByRole('img', { name: 'Your profile picture' })), poll).toBe(true);
  });

  it('refuses a non-image: a text file, and a text file named .png (refused by the server)', async () => {
    const user = await createUser();
    withUploads.push(user);
    const section = await openTab(page, user, 'information', 'Profile picture');
    const input = section.getByLabel('Choose a profile picture');
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/upload') uploads.push(request.method());
    });

    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('just some notes\n') });
    await expect.poll(() => section.getByRole('alert').textContent(), poll).toBe('Please choose an image file.');
    expect(await section.getByRole('button', { name: 'Save Photo' }).count()).toBe(0);

    await input.setInputFiles({ name: 'forged.png', mimeType: 'image/png', buffer: Buffer.from('this is not a picture\n') });
    await section.getByRole('button', { name: 'Save Photo' }).click();
    await expect.poll(() => section.getByRole('alert').textContent(), poll).toBe('Only PNG, JPEG, GIF or WebP images can be uploaded');
    expect(uploads).toEqual(['POST']);
    await screenshot(page, 'profile-picture-refused');

    await section.getByRole('button', { name: 'Cancel' }).click();
    await section.getByRole('button', { name: 'Upload Photo' }).waitFor();
    expect((await me(user)).profile_picture).toBeNull();
  });
});

// --- password -------------------------------------------------------------------------------

describe('Change password', () => {
  it('changes the password; the new one logs in, the old one no longer does', async () => {
    const user = await createUser();
    // Information's Change Password (SPEC §2) leads to the Security tab's Password section (issue 28).
    const information = await openTab(page, user, 'information', 'Password');
    await information.getByRole('button', { name: 'Change Password' }).click();
    await waitForPath(page, '/profile');
    await expect.poll(() => new URL(page.url()).search + new URL(page.url()).hash, poll).toBe('?tab=security#password');
    const section = region(page, 'Password');
    await section.getByRole('button', { name: 'Change Password', expanded: false }).click();
    const newPassword = `${user.password}-new`;

    // Strapi's own refusal first: a wrong current password.
    await section.getByLabel('Current Password', { exact: true }).fill('not-my-password');
    await section.getByLabel('New Password', { exact: true }).fill(newPassword);
    await section.getByLabel('Confirm New Password', { exact: true }).fill(newPassword);
    await section.getByRole('button', { name: 'Update Password' }).click();
    await expect.poll(() => section.getByRole('alert').textContent(), poll).toBe('The provided current password is invalid');

    await section.getByLabel('Current Password', { exact: true }).fill(user.password);
    const changed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/change-password');
    await section.getByRole('button', { name: 'Update Password' }).click();
    expect((await changed).status()).toBe(200);
    await expect.poll(() => section.getByRole('status').textContent(), poll).toBe('Password changed successfully!');

    // The token from before the change is revoked; this device stored the fresh one and stays logged in.
    const renewed = await storedSession(page);
    expect(renewed.jwt).not.toBe(user.jwt);
    const withToken = (jwt: string | null) =>
      fetch(`${baseUrl()}/api/users/me`, { headers: { Authorization: `Bearer ${jwt}` }, signal: AbortSignal.timeout(WAIT_MS) });
    expect((await withToken(user.jwt)).status).toBe(401);
    const stillMe = await withToken(renewed.jwt);
    expect(stillMe.status).toBe(200);
    expect(((await stillMe.json()) as { id: number }).id).toBe(user.id);
    await page.reload({ waitUntil: 'domcontentloaded' });
    await region(page, 'Password').waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log Out' }).click();
    await waitForPath(page, '/login');

    const logIn = async (password: string) => {
      await page.getByRole('textbox', { name: 'Email or Username' }).fill(user.username);
      await page.getByLabel('Password', { exact: true }).fill(password);
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/local');
      await page.getByRole('button', { name: 'Log In', exact: true }).click();
      return (await answered).status();
    };
    expect(await logIn(user.password)).toBe(400);
    await expect.poll(() => page.getByRole('alert').textContent(), poll).toBe('Invalid identifier or password');
    expect(await logIn(newPassword)).toBe(200);
    await expect.poll(async () => (await storedSession(page)).userId, poll).toBe(String(user.id));
  });
});

describe('Log out of all devices', () => {
  it('ends the sessions of every device, this one included, and shows the notice on /login', async () => {
    const user = await createUser();
    // A second device: its own browser context, logged in with its own token.
    const logIn = await fetch(`${baseUrl()}/api/auth/local`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ identifier: user.email, password: user.password }),
      signal: AbortSignal.timeout(WAIT_MS),
    });
    expect(logIn.status).toBe(200);
    const otherToken = ((await logIn.json()) as { jwt: string }).jwt;
    const otherDevice = await newContext(browser);
    const otherPage = await otherDevice.newPage();
    try {
      await openLoggedIn(otherPage, { jwt: otherToken, id: user.id }, '/profile?tab=information');
      await otherPage.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();

      // In the Security tab, under Signed-in devices (issue 28).
      const section = (await openTab(page, user, 'security', 'Security')).getByRole('group', { name: 'Signed-in devices' });
      const done = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/logout-all');
      await section.getByRole('button', { name: 'Log out of all devices' }).click();
      expect((await done).status()).toBe(200);
      await waitForPath(page, '/login');
      await expect.poll(() => page.getByRole('status').textContent(), poll).toBe('You have been logged out of all devices.');
      expect((await storedSession(page)).jwt).toBeNull();

      // Both tokens are refused; the other device's next call logs it out too.
      for (const jwt of [user.jwt, otherToken]) {
        const meAnswer = await fetch(`${baseUrl()}/api/users/me`, {
          headers: { Authorization: `Bearer ${jwt}` },
          signal: AbortSignal.timeout(WAIT_MS),
        });
        expect(meAnswer.status).toBe(401);
      }
      await otherPage.reload({ waitUntil: 'domcontentloaded' });
      await waitForPath(otherPage, '/login');
      // Its session row was signed out, so it is told so (issue 28), not that it expired.
      await expect.poll(() => otherPage.getByRole('status').textContent(), poll).toBe('You were signed out from another device.');
    } finally {
      await otherDevice.close();
    }
  });
});

// --- layout ---------------------------------------------------------------------------------

// The spec's seven, then Security (passkeys, two-factor, signed-in devices).
const TAB_NAMES = ['Information', 'Diet', 'Interests', 'Goals', 'FAQs', 'Support', 'Subscriptions', 'Security'];

describe('Profile layout', () => {
  it('desktop: the sidebar lists every section and there is no bottom bar', async () => {
    const user = await createUser();
    await openTab(page, user, 'information', 'Information');
    expect(page.viewportSize()).toEqual(DESKTOP);
    const sidebar = page.getByRole('navigation', { name: 'Profile sections' });
    await expect.poll(() => sidebar.getByRole('link').allTextContents(), poll).toEqual(TAB_NAMES);
    expect(await sidebar.isVisible()).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Profile quick links' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'All sections' }).isVisible()).toBe(false);

    await sidebar.getByRole('link', { name: 'Goals' }).click();
    await waitForPath(page, '/profile', '?tab=goals');
    await region(page, 'Goals').waitFor();
  });

  it('mobile (375 px): the bottom bar with the quick links, and the drawer with every section', async () => {
    const phone = await newContext(browser, { viewport: MOBILE });
    try {
      const mobilePage = await phone.newPage();
      const user = await createUser();
      await openTab(mobilePage, user, 'information', 'Information');

      const bar = mobilePage.getByRole('navigation', { name: 'Profile quick links' });
      await bar.waitFor();
      expect(await bar.getByRole('link').allTextContents()).toEqual(['Information', 'Diet', 'Goals', 'Subscriptions']);
      const box = (await bar.boundingBox())!;
      expect(Math.round(box.y + box.height)).toBe(MOBILE.height);
      expect(box.width).toBeGreaterThanOrEqual(MOBILE.width - 1);
      expect(await mobilePage.getByRole('navigation', { name: 'Profile sections' }).isVisible()).toBe(false);
      expect(await mobilePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
      await screenshot(mobilePage, 'profile-mobile', { fullPage: false });

      await bar.getByRole('link', { name: 'Diet' }).click();
      await waitForPath(mobilePage, '/profile', '?tab=diet');
      await region(mobilePage, 'Diet').waitFor();
      expect(await bar.getByRole('link', { name: 'Diet' }).getAttribute('aria-current')).toBe('page');

      const drawer = mobilePage.getByRole('navigation', { name: 'All profile sections' });
      expect(await drawer.isVisible()).toBe(false);
      await mobilePage.getByRole('button', { name: 'All sections' }).click();
      await expect.poll(() => drawer.isVisible(), poll).toBe(true);
      expect(await drawer.getByRole('link').allTextContents()).toEqual(TAB_NAMES);
      await drawer.getByRole('link', { name: 'Interests' }).click();
      await waitForPath(mobilePage, '/profile', '?tab=interests');
      await region(mobilePage, 'Interests').waitFor();
      await expect.poll(() => drawer.isVisible(), poll).toBe(false);
    } finally {
      await phone.close();
    }
  });
});
