import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2eServer, type E2eServer } from './support/server';
import {
  BUDGETS,
  LIGHTHOUSE_PATHS,
  MAX_RUNS,
  STARVED_RETRIES,
  MEMBER_BUDGETS,
  MEMBER_LIGHTHOUSE_PATHS,
  auditPage,
  failingAuditLines,
  launchChromium,
  memberPageOptions,
  registerAuditMember,
  runLine,
  signedIn,
  tableHeader,
  tableLine,
  type AuditMember,
  type AuditPageOptions,
  type LaunchedChrome,
  type PageAudit,
} from './support/lighthouse';

// Lighthouse (mobile preset, simulated throttling) against the built app as `npm start` serves
// it (a server of its own, started here rather than by a global setup, which would boot at the run's start and
// idle through it; the lighthouse project runs after every other). Each page gets up to MAX_RUNS runs, fewer once its best
// figures meet every budget; `npm run lighthouse` runs the same audit against a running server.
// Members' pages are audited as a member registered through the API, signed in, on a cold cache.

/** A run takes 8-15 s on two cores; three of them, and room for a slow one. */
const PAGE_TIMEOUT_MS = (MAX_RUNS + STARVED_RETRIES) * 40_000;

let server: E2eServer | undefined;
let chrome: LaunchedChrome | undefined;
let member: AuditMember | undefined;
const audits: PageAudit[] = [];
const baseUrl = () => server!.baseUrl;

beforeAll(async () => {
  server = await startE2eServer({ GOAL_REMINDER_CRON: 'off' });
  chrome = await launchChromium(`${baseUrl()}/`);
  member = await registerAuditMember(baseUrl());
}, 120_000);

afterAll(async () => {
  chrome?.kill();
  await server?.stop();
  // The whole table at the end, one line per page, then what to fix.
  if (audits.length === 0) return;
  const lines = [tableHeader(), ...audits.map(tableLine), ...audits.flatMap(failingAuditLines)];
  console.log(`Lighthouse budgets (best of up to ${MAX_RUNS} runs per page, more when CPU-starved):\n${lines.join('\n')}`);
});

/** Audits `path`, prints its runs, table line and failing audits, and keeps it for the table at the end. */
async function audit(path: string, options: Omit<AuditPageOptions, 'port'> = {}): Promise<PageAudit> {
  if (!chrome) throw new Error('Chromium did not start');
  const result = await auditPage(`${baseUrl()}${path}`, {
    ...options,
    port: chrome.port,
    // Printed as each run ends, so that a page that runs out of time still shows its runs.
    onRun: (run, figures, lhr) => console.log(runLine(path, run, figures, lhr)),
  });
  audits.push(result);
  console.log([tableLine(result), ...failingAuditLines(result)].join('\n'));
  return result;
}

describe('Lighthouse budgets (mobile, simulated throttling)', () => {
  it.each(LIGHTHOUSE_PATHS)(
    '%s meets the budgets',
    async (path) => {
      expect(
        (await audit(path)).violations,
        `${path} misses its budget (perf >= ${BUDGETS.performance}, a11y, best practices and SEO 100, LCP <= ${
          BUDGETS.lcpMs / 1000
        } s, CLS <= ${BUDGETS.cls}); the failing audits are printed above`,
      ).toEqual([]);
    },
    PAGE_TIMEOUT_MS,
  );

  it.each(MEMBER_LIGHTHOUSE_PATHS)(
    "%s, signed in on a cold cache, meets the members' budgets with the member's data as the largest paint",
    async (path) => {
      if (!chrome || !member) throw new Error('Chromium or the member is missing');
      const signedInMember = member;
      const result = await signedIn(chrome.port, baseUrl(), signedInMember, () => audit(path, memberPageOptions(signedInMember)));
      expect(
        result.violations,
        `${path} misses its budget (perf >= ${MEMBER_BUDGETS.performance}, a11y and best practices 100, LCP <= ${
          MEMBER_BUDGETS.lcpMs / 1000
        } s, CLS <= ${MEMBER_BUDGETS.cls}, the member's name in the largest paint); the failing audits are printed above`,
      ).toEqual([]);
    },
    PAGE_TIMEOUT_MS,
  );
});
