import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl } from './support/browser';
import {
  BUDGETS,
  LIGHTHOUSE_PATHS,
  MAX_RUNS,
  auditPage,
  failingAuditLines,
  launchChromium,
  runLine,
  tableHeader,
  tableLine,
  type LaunchedChrome,
  type PageAudit,
} from './support/lighthouse';

// Lighthouse (mobile preset, simulated throttling) against the built app as `npm start` serves
// it (the e2e global setup's server). Each page gets up to MAX_RUNS runs, fewer once its best
// figures meet every budget; `npm run lighthouse` runs the same audit against a running server.

/** A run takes 8-15 s on two cores; three of them, and room for a slow one. */
const PAGE_TIMEOUT_MS = 150_000;

let chrome: LaunchedChrome | undefined;
const audits: PageAudit[] = [];

beforeAll(async () => {
  chrome = await launchChromium();
});

afterAll(() => {
  chrome?.kill();
  // The whole table at the end, one line per page, then what to fix.
  if (audits.length === 0) return;
  const lines = [tableHeader(), ...audits.map(tableLine), ...audits.flatMap(failingAuditLines)];
  console.log(`Lighthouse budgets (best of up to ${MAX_RUNS} runs per page):\n${lines.join('\n')}`);
});

describe('Lighthouse budgets (mobile, simulated throttling)', () => {
  it.each(LIGHTHOUSE_PATHS)(
    '%s meets the budgets',
    async (path) => {
      if (!chrome) throw new Error('Chromium did not start');
      const progress: string[] = [];
      const audit = await auditPage(`${baseUrl()}${path}`, {
        port: chrome.port,
        onRun: (run, figures) => progress.push(runLine(path, run, figures)),
      });
      audits.push(audit);
      console.log([...progress, tableLine(audit), ...failingAuditLines(audit)].join('\n'));

      expect(
        audit.violations,
        `${path} misses its budget (perf >= ${BUDGETS.performance}, a11y, best practices and SEO 100, LCP <= ${
          BUDGETS.lcpMs / 1000
        } s, CLS <= ${BUDGETS.cls}); the failing audits are printed above`,
      ).toEqual([]);
    },
    PAGE_TIMEOUT_MS,
  );
});
