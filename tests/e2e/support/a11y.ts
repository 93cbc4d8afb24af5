import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export type AxeFinding = { id: string; impact: string | null; help: string; targets: string[] };

/**
 * Runs axe-core in the page and returns its serious and critical violations. The page's context
 * needs `bypassCSP: true`: the site's Content-Security-Policy forbids inline scripts.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    type AxeResult = {
      violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }>;
    };
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResult> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      targets: nodes.slice(0, 5).map((node) => node.target.map(String).join(' ')),
    }));
  });
  return violations.filter(({ impact }) => impact === 'serious' || impact === 'critical');
}

/**
 * Presses Tab through the whole page and returns the visible controls (links, buttons, form
 * fields, summaries) that never received focus.
 */
export async function controlsNotReachedByTab(page: Page): Promise<string[]> {
  const total = await page.evaluate(() => {
    const controls = [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary')].filter(
      (element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden' && !element.closest('[inert]'),
    );
    controls.forEach((element, index) => element.setAttribute('data-tab-check', String(index)));
    return controls.length;
  });
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  const reached = new Set<string>();
  for (let press = 0; press < total + 5; press += 1) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => document.activeElement?.getAttribute('data-tab-check') ?? null);
    if (id !== null) reached.add(id);
  }
  return page.evaluate(
    (seen) =>
      [...document.querySelectorAll<HTMLElement>('[data-tab-check]')]
        .filter((element) => !seen.includes(element.getAttribute('data-tab-check')!))
        .map((element) => `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 40)}"`),
    [...reached],
  );
}

/** Width of the page's content: more than the viewport means horizontal scrolling. */
export function scrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
}
