import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  WAIT_MS,
  baseUrl,
  closeBrowser,
  createUser,
  launchBrowser,
  newContext,
  openLoggedIn,
  screenshot,
  type TestUser,
} from './support/browser';

const poll = { timeout: WAIT_MS, interval: 50 };

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await closeBrowser(browser);
});
beforeEach(async () => {
  context = await newContext(browser);
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
});

type Me = { unit_system?: string; bmi: { currentWeight: number; height: number } | null };

async function api<T>(user: TestUser, path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(`${baseUrl()}${path}`, {
    method: init.method ?? 'GET',
    headers: { Authorization: `Bearer ${user.jwt}`, 'Content-Type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(WAIT_MS),
  });
  return { status: response.status, body: (await response.json()) as T };
}

const region = (p: Page, name: string) => p.getByRole('region', { name, exact: true });

async function openTab(p: Page, user: TestUser, tab: string, regionName: string): Promise<Locator> {
  await openLoggedIn(p, user, `/profile?tab=${tab}`);
  await p.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
  const section = region(p, regionName);
  await section.waitFor();
  return section;
}

async function saveInformation(section: Locator) {
  const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && /\/api\/users\/\d+$/.test(new URL(r.url()).pathname));
  await section.getByRole('button', { name: 'Save', exact: true }).click();
  expect((await saved).status()).toBe(200);
  await expect.poll(() => section.getByRole('status').textContent(), poll).toBe('Profile updated successfully!');
}

const currentBmi = (section: Locator) => section.locator('dt:text-is("Current BMI") + dd');

describe('Progress (issue 12)', () => {
  it('records dated weights and shows them as a chart and as a table; an entry can be deleted', async () => {
    const user = await createUser();
    const setUp = await api(user, `/api/users/${user.id}`, {
      method: 'PUT',
      body: { goal_weight: 75, bmi: { height: 180, currentWeight: 84, Gender: 'Male', date_of_birth: null, idealBmiWeight: '72.9' } },
    });
    expect(setUp.status).toBe(200);
    const history = await openTab(page, user, 'goals', 'Weight history');
    await history.getByRole('button', { name: 'Add entry' }).waitFor();

    for (const [date, weight] of [
      ['2025-01-10', '86'],
      ['2025-02-10', '83.5'],
      ['2025-02-10', '83'],
    ] as const) {
      const added = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/weight-entries');
      await history.getByLabel('Date', { exact: true }).fill(date);
      await history.getByLabel('Weight (kg)', { exact: true }).fill(weight);
      await history.getByRole('button', { name: 'Add entry' }).click();
      expect([200, 201]).toContain((await added).status());
      await expect.poll(() => history.getByRole('status').textContent(), poll).toBe('Weight entry saved');
    }

    const table = history.getByRole('table', { name: 'Weight entries, newest first' });
    // The second entry of 10 February replaced the first.
    await expect.poll(() => table.innerText(), poll).toContain('83 kg');
    const text = await table.innerText();
    expect(text).toContain('86 kg');
    expect(text).not.toContain('83.5 kg');
    // Newest first (issue 21): today's 84 kg (saved with the profile), then 10 February, then 10 January.
    const weightsShown = await table.locator('tbody tr td:first-of-type').allInnerTexts();
    expect(weightsShown).toEqual(['84 kg', '83 kg', '86 kg']);
    const entries = await api<{ data: { date: string; weight: number }[] }>(user, '/api/weight-entries');
    expect(entries.body.data.filter((entry) => entry.date === '2025-02-10').map((entry) => entry.weight)).toEqual([83]);

    // The chart (uPlot, loaded with the tab) draws on a canvas; screen readers skip it for the table.
    const chart = history.getByTestId('weight-chart');
    await chart.locator('canvas').waitFor({ timeout: WAIT_MS });
    expect(await chart.getAttribute('aria-hidden')).toBe('true');
    const box = await chart.locator('canvas').boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(100);
    expect(box?.height ?? 0).toBeGreaterThan(100);
    // The legend in words (issue 21): the lines with the unit, the goal with its value, the BMI bands for 180 cm.
    const legend = history.getByRole('list', { name: 'Chart legend' });
    expect(await legend.getByRole('listitem').allInnerTexts()).toEqual([
      'Weight (kg)',
      'Goal 75 kg',
      'Underweight',
      'Normal',
      'Overweight',
      'Obese',
    ]);
    expect(await history.locator('figure').innerText()).not.toContain('--');
    await screenshot(page, 'progress-weight-history');

    const oldestDay = await table.getByRole('rowheader').last().innerText();
    await table.getByRole('button', { name: `Delete the entry of ${oldestDay}` }).click();
    await expect.poll(() => table.getByRole('rowheader').allInnerTexts(), poll).not.toContain(oldestDay);
    const after = await api<{ data: { date: string }[] }>(user, '/api/weight-entries');
    expect(after.body.data.map((entry) => entry.date)).not.toContain('2025-01-10');
  });

  it("without a goal the chart has no goal line or legend entry; 'Weight entry saved' clears after 3 s (issue 21)", async () => {
    const user = await createUser();
    const history = await openTab(page, user, 'goals', 'Weight history');
    await history.getByRole('button', { name: 'Add entry' }).waitFor();
    await history.getByLabel('Date', { exact: true }).fill('2025-03-01');
    await history.getByLabel('Weight (kg)', { exact: true }).fill('82');
    await history.getByRole('button', { name: 'Add entry' }).click();
    const notice = history.getByRole('status');
    await expect.poll(() => notice.textContent(), poll).toBe('Weight entry saved');
    const shownAt = Date.now();

    const legend = history.getByRole('list', { name: 'Chart legend' });
    await legend.waitFor();
    expect(await legend.getByRole('listitem').allInnerTexts()).toEqual(['Weight (kg)']);
    const figure = history.locator('figure');
    await figure.locator('canvas').waitFor();
    const drawn = await figure.innerText();
    expect(drawn).not.toContain('Goal');
    expect(drawn).not.toContain('--');
    // uPlot's own legend (cursor values, '--' until hovered) is not drawn.
    expect(await figure.locator('.u-legend').count()).toBe(0);
    await screenshot(page, 'progress-no-goal');

    await expect.poll(() => notice.count(), { timeout: WAIT_MS, interval: 100 }).toBe(0);
    // SPEC §9: 3000 ms, like the profile's other notices (it used to stay for good).
    expect(Date.now() - shownAt).toBeGreaterThan(2000);
    expect(await history.getByRole('table', { name: 'Weight entries, newest first' }).innerText()).toContain('82 kg');
  });

  it('in imperial, 180 lb and 5 ft 11 in give the same BMI as the metric values', async () => {
    const user = await createUser();
    const information = await openTab(page, user, 'information', 'Information');
    await information.getByRole('button', { name: 'Edit Profile' }).click();
    await information.getByRole('textbox', { name: 'Height (cm)' }).fill('180.3');
    await information.getByRole('textbox', { name: 'Weight (kg)' }).fill('81.6');
    await saveInformation(information);
    await expect.poll(() => currentBmi(information).innerText(), poll).toContain('25.1');
    const metricBmi = (await currentBmi(information).innerText()).split(/\s/)[0];

    const units = region(page, 'Units');
    const switched = page.waitForResponse((r) => r.request().method() === 'PUT' && /\/api\/users\/\d+$/.test(new URL(r.url()).pathname));
    await units.getByRole('radio', { name: /^Imperial/ }).check();
    expect((await switched).status()).toBe(200);
    await expect.poll(() => units.getByRole('status').textContent(), poll).toBe('Profile updated successfully!');
    await expect.poll(() => information.innerText(), poll).toContain('lb');

    await information.getByRole('button', { name: 'Edit Profile' }).click();
    await information.getByRole('textbox', { name: 'Height (ft)' }).fill('5');
    await information.getByRole('textbox', { name: 'Height (in)' }).fill('11');
    await information.getByRole('textbox', { name: 'Weight (lb)' }).fill('180');
    await saveInformation(information);
    await expect.poll(() => information.innerText(), poll).toContain('180 lb');
    const text = await information.innerText();
    expect(text).toContain('5 ft 11 in');
    expect((await currentBmi(information).innerText()).split(/\s/)[0]).toBe(metricBmi);

    // Stored in kg and cm, converted exactly. 180.3 cm already shows as 5 ft 11 in, so it is kept as it was.
    const me = await api<Me>(user, '/api/users/me?populate=*');
    expect(me.body.unit_system).toBe('imperial');
    expect(me.body.bmi?.height).toBe(180.3);
    expect(me.body.bmi?.currentWeight).toBeCloseTo(81.6466, 2);

    // A limit is worded in pounds.
    await information.getByRole('button', { name: 'Edit Profile' }).click();
    await information.getByRole('textbox', { name: 'Weight (lb)' }).fill('700');
    await information.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => information.getByRole('alert').textContent(), poll).toBe('Weight must be between 67-661 lb');
    await screenshot(page, 'progress-imperial');
  });
});
