import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DESKTOP, WAIT_MS, closeBrowser, launchBrowser, newCredentials, waitFor } from './support/browser';
import { startE2eServer, type E2eServer } from './support/server';
import { expectSiteLook } from './support/siteLook';

/**
 * Goal reminder e-mails end to end: the real cron job of a production server (its own server, so
 * the suite's main one keeps GOAL_REMINDER_CRON off), the e-mail it writes, and the one-click
 * unsubscribe link opened in Chromium.
 */

// Every 2 seconds (6 fields, seconds first): several runs within one test.
const FAST_CRON = '*/2 * * * * *';
const REMINDER_WAIT_MS = 20_000;

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startE2eServer({ GOAL_REMINDER_CRON: FAST_CRON });
  browser = await launchBrowser();
});
afterAll(async () => {
  await closeBrowser(browser);
  await server?.stop();
});
beforeEach(async () => {
  context = await browser.newContext({ baseURL: server.baseUrl, viewport: DESKTOP });
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(WAIT_MS);
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
});

type Member = { email: string; jwt: string; id: number };
type Reminder = { file: string; subject: string; text: string; html: string };

async function api<T>(member: Member | null, method: string, pathname: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.baseUrl}${pathname}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(member ? { Authorization: `Bearer ${member.jwt}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(WAIT_MS),
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function signUp(): Promise<Member> {
  const credentials = newCredentials();
  const res = await api<{ jwt: string; user: { id: number } }>(null, 'POST', '/api/auth/local/register', credentials);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { email: credentials.email, jwt: res.body.jwt, id: res.body.user.id };
}

async function updateProfile(member: Member, body: Record<string, unknown>): Promise<void> {
  const res = await api(member, 'PUT', `/api/users/${member.id}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A member with a current weight and a daily goal reminder, saved as the Information and Goals tabs do. */
async function memberWithDailyGoal(currentWeight: number, goalWeight: number): Promise<Member> {
  const member = await signUp();
  await updateProfile(member, { bmi: { currentWeight, height: 180 } });
  await updateProfile(member, { goal_weight: goalWeight, goal_reminder: 'daily' });
  return member;
}

async function remindersEnabled(member: Member): Promise<boolean | null | undefined> {
  const res = await api<{ reminders_enabled?: boolean | null }>(member, 'GET', '/api/users/me');
  expect(res.status).toBe(200);
  return res.body.reminders_enabled;
}

/** Goal reminders this server wrote to `to`, oldest first (the outbox's file names start with the send time). */
function remindersTo(to: string): Reminder[] {
  let names: string[];
  try {
    names = readdirSync(server.outboxDir)
      .filter((name) => name.endsWith('.eml'))
      .sort();
  } catch {
    return []; // No e-mail sent yet: the directory is created on the first one.
  }
  return names
    .map((name) => {
      const file = path.join(server.outboxDir, name);
      const raw = readFileSync(file, 'utf8');
      const [head] = raw.split('\r\n\r\n', 1);
      const header = (field: string) => new RegExp(`^${field}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? '';
      const part = (type: string) =>
        new RegExp(`Content-Type: ${type}[^\\r\\n]*\\r\\n(?:[^\\r\\n]+\\r\\n)*\\r\\n([\\s\\S]*?)\\r\\n--carnivo-`).exec(raw)?.[1] ?? '';
      return { file, to: header('To'), subject: header('Subject'), text: part('text/plain'), html: part('text/html') };
    })
    .filter((email) => email.to.toLowerCase() === to.toLowerCase() && email.subject.startsWith('Your Carnivo goal'));
}

async function waitForReminder(member: Member): Promise<Reminder> {
  await waitFor(() => remindersTo(member.email).length > 0, `a goal reminder to ${member.email} in ${server.outboxDir}`, REMINDER_WAIT_MS);
  return remindersTo(member.email)[0];
}

function unsubscribeLinkOf(reminder: Reminder): string {
  const link = /Stop them with one click: (\S+)/.exec(reminder.text)?.[1];
  if (!link) throw new Error(`no unsubscribe link in ${reminder.file}:\n${reminder.text}`);
  return link;
}

/** The same token with one character of its signature changed. */
function tampered(link: string): string {
  const url = new URL(link);
  const token = url.searchParams.get('token')!;
  const at = token.length - 10;
  url.searchParams.set('token', `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`);
  return url.toString();
}

describe('goal reminder e-mails (cron every 2 s on a server of their own)', () => {
  let member: Member;
  let reminder: Reminder;
  // The link tests follow the first test's member and e-mail; say so rather than fail obscurely.
  const needReminder = () => {
    if (!reminder) throw new Error('no reminder from the first test to follow');
  };

  it('the cron job e-mails a member with a daily goal their progress, once for the day', async () => {
    member = await memberWithDailyGoal(82, 75);
    reminder = await waitForReminder(member);

    expect(reminder.subject).toBe('Your Carnivo goal: 75 kg');
    expect(reminder.text).toContain('Current weight: 82 kg');
    expect(reminder.text).toContain('Goal weight: 75 kg');
    expect(reminder.text).toContain('Progress: 7 kg to lose');
    expect(reminder.html).toContain('<tr><th align="left">Goal weight</th><td>75 kg</td></tr>');
    expect(reminder.html).toContain('7 kg to lose');
    const link = unsubscribeLinkOf(reminder);
    expect(link.startsWith(`${server.baseUrl}/api/reminders/unsubscribe?token=${member.id}.`)).toBe(true);
    expect(reminder.html).toContain(`href="${link}"`);

    // Two later members each getting their reminder proves at least two more runs happened after
    // the first member's; none of them mailed the first member again.
    const second = await memberWithDailyGoal(70, 72.5);
    const secondReminder = await waitForReminder(second);
    expect(secondReminder.text).toContain('Progress: 2.5 kg to gain');
    const third = await memberWithDailyGoal(90, 80);
    await waitForReminder(third);
    expect(remindersTo(member.email)).toHaveLength(1);
    expect(remindersTo(second.email)).toHaveLength(1);
  });

  it('the link in the e-mail turns reminders off in Chromium, without logging in', async () => {
    needReminder();
    expect(await remindersEnabled(member)).toBe(true);

    const response = await page.goto(unsubscribeLinkOf(reminder), { waitUntil: 'domcontentloaded' });
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Reminders turned off');
    await expect(page.locator('main p').first().textContent()).resolves.toContain('You will no longer receive goal reminder e-mails.');
    expect(await page.getByRole('link', { name: 'Go to your profile' }).getAttribute('href')).toBe('/profile?tab=goals');

    expect(await remindersEnabled(member)).toBe(false);
    await expectSiteLook(page, server.baseUrl);
  });

  it('a link with one character changed is refused in Chromium and changes nothing', async () => {
    needReminder();
    await updateProfile(member, { reminders_enabled: true });
    expect(await remindersEnabled(member)).toBe(true);

    const link = tampered(unsubscribeLinkOf(reminder));
    expect(link).not.toBe(unsubscribeLinkOf(reminder));
    const response = await page.goto(link, { waitUntil: 'domcontentloaded' });
    expect(response?.status()).toBe(400);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Link not valid');
    await expect(page.locator('main p').first().textContent()).resolves.toContain('This unsubscribe link is not valid.');

    expect(await remindersEnabled(member)).toBe(true);
  });
});
