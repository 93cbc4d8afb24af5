import type { Page, Request, Route } from 'playwright-core';
import { waitFor } from './browser';

/**
 * Holds matching requests until release() so a busy state can be observed without sleeping.
 * `sent(n)` waits until n requests have reached the hold: the SPA may show its busy label a
 * moment before its HTTP client (loaded on first use) sends the request.
 */
export async function holdRequests(page: Page, pattern: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const held: Request[] = [];
  await page.route(pattern, async (route: Route) => {
    held.push(route.request());
    await released;
    await route.continue();
  });
  const sent = async (count: number): Promise<Request[]> => {
    await waitFor(() => held.length >= count, `${count} request(s) to ${pattern}`);
    return held;
  };
  return { release, held, sent };
}
