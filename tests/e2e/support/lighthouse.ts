/**
 * Lighthouse budget check (lighthouse 12: lighthouse 13 needs Node >= 22.19).
 *
 * Lighthouse's default settings are the mobile preset (Moto G Power-sized screen, slow-4G network
 * and 4x CPU slowdown) with simulated throttling; the form factor and throttling method are named
 * below anyway, so that a change of default cannot change the budget silently. Debian's Chromium
 * is launched through chrome-launcher (a lighthouse dependency), headless, with a fresh throw-away
 * profile.
 *
 * Used by tests/e2e/lighthouse.test.ts (against the server of the e2e global setup) and by
 * `npm run lighthouse [-- URL] [/path ...] [--runs N]` (against an already running server, by
 * default http://localhost:1337, the port `npm start` serves on).
 */
import { launch as launchChrome, type LaunchedChrome } from 'chrome-launcher';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser';

export type { LaunchedChrome };

/** The public pages the budget covers. */
export const LIGHTHOUSE_PATHS: readonly string[] = ['/', '/features', '/privacy-policy', '/login'];

/** Category scores are 0-100 (as the report shows them), LCP in ms, CLS unitless. */
export const BUDGETS = {
  performance: 95,
  accessibility: 100,
  bestPractices: 100,
  seo: 100,
  lcpMs: 1_500,
  cls: 0.05,
} as const;

/** Runs per page at most: a run that meets every budget ends the page early. */
export const MAX_RUNS = 3;

export const DEFAULT_BASE_URL = 'http://localhost:1337';

/**
 * On top of chrome-launcher's own defaults (no extensions, no translate, no background timers'
 * throttling, ...): the e2e browser's flags (support/browser.ts), with Chrome's current headless mode.
 */
const CHROMIUM_FLAGS = ['--headless=new', ...CHROMIUM_ARGS.filter((flag) => flag !== '--headless')];

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type CategoryId = (typeof CATEGORIES)[number];

const LIGHTHOUSE_FLAGS: Flags = {
  logLevel: 'error',
  output: 'json',
  onlyCategories: [...CATEGORIES],
  // The mobile preset with simulated throttling (Lighthouse's defaults, named on purpose).
  formFactor: 'mobile',
  throttlingMethod: 'simulate',
};

export type Figures = {
  /** Category scores 0-100; null when the run produced none (a page that did not load). */
  performance: number | null;
  accessibility: number | null;
  bestPractices: number | null;
  seo: number | null;
  lcpMs: number | null;
  tbtMs: number | null;
  cls: number | null;
};

export type FailingAudit = {
  category: CategoryId;
  id: string;
  title: string;
  displayValue?: string;
  /** A few of the audit's items (elements, URLs, console messages), to know where to look. */
  examples: string[];
};

export type PageAudit = {
  url: string;
  path: string;
  runs: number;
  /** The best of each figure over the runs (see bestOf). */
  figures: Figures;
  /** Each budget the best figures miss, e.g. "perf 83 < 95"; empty when the page is within budget. */
  violations: string[];
  /** The failing audits of the run behind each figure that misses its budget. */
  failingAudits: FailingAudit[];
  /** Runs that failed outright (Lighthouse's runtime error). */
  runErrors: string[];
  seconds: number;
};

export async function launchChromium(): Promise<LaunchedChrome> {
  return launchChrome({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_FLAGS, logLevel: 'silent' });
}

/** One Lighthouse run of `url` in the Chromium listening on `port`; returns its report (LHR). */
export async function runLighthouse(url: string, port: number): Promise<Result> {
  const result = await lighthouse(url, { ...LIGHTHOUSE_FLAGS, port });
  if (!result) throw new Error(`lighthouse returned no result for ${url}`);
  return result.lhr;
}

function categoryScore(lhr: Result, id: CategoryId): number | null {
  const score = lhr.categories[id]?.score;
  return typeof score === 'number' ? Math.round(score * 100) : null;
}

function numeric(lhr: Result, auditId: string): number | null {
  const value = lhr.audits[auditId]?.numericValue;
  return typeof value === 'number' && !lhr.runtimeError ? value : null;
}

export function figuresOf(lhr: Result): Figures {
  return {
    performance: categoryScore(lhr, 'performance'),
    accessibility: categoryScore(lhr, 'accessibility'),
    bestPractices: categoryScore(lhr, 'best-practices'),
    seo: categoryScore(lhr, 'seo'),
    lcpMs: numeric(lhr, 'largest-contentful-paint'),
    tbtMs: numeric(lhr, 'total-blocking-time'),
    cls: numeric(lhr, 'cumulative-layout-shift'),
  };
}

const higher = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
const lower = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

/**
 * The best of each figure over the runs, each taken on its own: every metric has its own noise on
 * a busy machine (TBT follows whatever else the two cores are doing; LCP follows the server's
 * response time), so one unlucky moment in a run should not mask a good value of another figure.
 * A page is within budget when each figure was reached in at least one run.
 */
export function bestOf(runs: Figures[]): Figures {
  return runs.reduce<Figures>(
    (best, run) => ({
      performance: higher(best.performance, run.performance),
      accessibility: higher(best.accessibility, run.accessibility),
      bestPractices: higher(best.bestPractices, run.bestPractices),
      seo: higher(best.seo, run.seo),
      lcpMs: lower(best.lcpMs, run.lcpMs),
      tbtMs: lower(best.tbtMs, run.tbtMs),
      cls: lower(best.cls, run.cls),
    }),
    { performance: null, accessibility: null, bestPractices: null, seo: null, lcpMs: null, tbtMs: null, cls: null },
  );
}

const seconds = (ms: number | null) => (ms === null ? '-' : `${(ms / 1000).toFixed(2)} s`);
const milliseconds = (ms: number | null) => (ms === null ? '-' : `${Math.round(ms)} ms`);
const cls = (value: number | null) => (value === null ? '-' : value.toFixed(3));
const score = (value: number | null) => (value === null ? '-' : String(value));

/** The budgets `figures` miss; a missing figure misses its budget. */
export function budgetViolations(figures: Figures): string[] {
  const violations: string[] = [];
  const atLeast = (name: string, value: number | null, min: number) => {
    if (value === null || value < min) violations.push(`${name} ${score(value)} < ${min}`);
  };
  atLeast('perf', figures.performance, BUDGETS.performance);
  atLeast('a11y', figures.accessibility, BUDGETS.accessibility);
  atLeast('best-practices', figures.bestPractices, BUDGETS.bestPractices);
  atLeast('SEO', figures.seo, BUDGETS.seo);
  if (figures.lcpMs === null || figures.lcpMs > BUDGETS.lcpMs) violations.push(`LCP ${seconds(figures.lcpMs)} > ${seconds(BUDGETS.lcpMs)}`);
  if (figures.cls === null || figures.cls > BUDGETS.cls) violations.push(`CLS ${cls(figures.cls)} > ${BUDGETS.cls}`);
  return violations;
}

type Item = Record<string, unknown>;

/** The rows of an audit's details; a "list" (the LCP element, ...) holds tables of its own. */
function detailItems(details: unknown): Item[] {
  const items = (details as { items?: unknown[] } | undefined)?.items ?? [];
  return items
    .filter((item): item is Item => item !== null && typeof item === 'object')
    .flatMap((item) => (item.type === 'table' || item.type === 'list' ? detailItems(item) : [item]));
}

/** A short, one-line description of one item of an audit's details table. */
function describeItem(item: Item): string | null {
  const node = item.node as { selector?: string; snippet?: string } | undefined;
  const url = typeof item.url === 'string' ? item.url : (item.sourceLocation as { url?: string } | undefined)?.url;
  const description = typeof item.description === 'string' ? item.description.split('\n')[0].trim() : undefined;
  // Elements by selector; console messages with the resource they came from; or the URL alone.
  const text = node?.selector ?? node?.snippet ?? (description && url ? `${description} (${url})` : (description ?? url));
  if (!text) return null;
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/**
 * The audits that cost a category its points in one run: for accessibility, best practices and
 * SEO every scored audit that did not pass; for performance the metrics and diagnostics under
 * Lighthouse's "passed" mark (0.9), the ones that say what to make smaller, faster or later.
 */
export function failingAuditsOf(lhr: Result, category: CategoryId): FailingAudit[] {
  const failing: FailingAudit[] = [];
  for (const ref of lhr.categories[category]?.auditRefs ?? []) {
    const audit = lhr.audits[ref.id];
    if (!audit || audit.score === null) continue;
    if (!['binary', 'numeric', 'metricSavings'].includes(audit.scoreDisplayMode)) continue;
    if (category === 'performance') {
      // The "hidden" group holds what the report does not show: unscored metrics (TTI, max
      // potential FID) and the newer "insights", which repeat the diagnostics.
      if (ref.group === 'hidden' || audit.score >= 0.9) continue;
    } else if (ref.weight === 0 || audit.score >= 1) {
      continue;
    }
    const examples = detailItems(audit.details)
      .map(describeItem)
      .filter((text): text is string => text !== null)
      .slice(0, 3);
    failing.push({ category, id: ref.id, title: audit.title, displayValue: audit.displayValue, examples });
  }
  return failing;
}

export type AuditPageOptions = {
  port: number;
  maxRuns?: number;
  /** Called after each run with its own figures (for progress output). */
  onRun?: (run: number, figures: Figures, lhr: Result) => void;
};

/**
 * Audits one page up to `maxRuns` times (a noisy 2-core machine: measure a few times and take the
 * best) and keeps the best of each figure (see bestOf). It stops as soon as those best figures
 * meet every budget: at the latest after the first run that meets them all on its own.
 */
export async function auditPage(url: string, { port, maxRuns = MAX_RUNS, onRun }: AuditPageOptions): Promise<PageAudit> {
  const started = Date.now();
  const reports: Result[] = [];
  const runErrors: string[] = [];
  for (let run = 1; run <= maxRuns; run += 1) {
    const lhr = await runLighthouse(url, port);
    if (lhr.runtimeError) runErrors.push(`run ${run}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    reports.push(lhr);
    onRun?.(run, figuresOf(lhr), lhr);
    if (budgetViolations(bestOf(reports.map(figuresOf))).length === 0) break;
  }
  const figures = bestOf(reports.map(figuresOf));
  const violations = budgetViolations(figures);

  // The failing audits come from the run that scored best in the category, so they are the ones
  // still to fix even in the best case.
  const bestRunFor = (category: CategoryId) =>
    reports.reduce((best, lhr) => ((categoryScore(lhr, category) ?? -1) > (categoryScore(best, category) ?? -1) ? lhr : best));
  const failingAudits: FailingAudit[] = [];
  const missed = (prefix: string) => violations.some((violation) => violation.startsWith(prefix));
  if (missed('perf') || missed('LCP') || missed('CLS')) failingAudits.push(...failingAuditsOf(bestRunFor('performance'), 'performance'));
  if (missed('a11y')) failingAudits.push(...failingAuditsOf(bestRunFor('accessibility'), 'accessibility'));
  if (missed('best-practices')) failingAudits.push(...failingAuditsOf(bestRunFor('best-practices'), 'best-practices'));
  if (missed('SEO')) failingAudits.push(...failingAuditsOf(bestRunFor('seo'), 'seo'));

  return {
    url,
    path: new URL(url).pathname,
    runs: reports.length,
    figures,
    violations,
    failingAudits,
    runErrors,
    seconds: (Date.now() - started) / 1000,
  };
}

const COLUMNS: Array<[string, number]> = [
  ['page', 16],
  ['perf', 5],
  ['a11y', 5],
  ['b-p', 5],
  ['SEO', 5],
  ['LCP', 9],
  ['TBT', 8],
  ['CLS', 7],
  ['runs', 5],
];

function row(cells: string[]): string {
  return cells.map((cell, index) => (index === 0 ? cell.padEnd(COLUMNS[0][1]) : cell.padStart(COLUMNS[index][1]))).join(' ');
}

export function tableHeader(): string {
  return `${row(COLUMNS.map(([name]) => name))}   budget: perf >= ${BUDGETS.performance}, a11y/b-p/SEO >= 100, LCP <= ${seconds(BUDGETS.lcpMs)}, CLS <= ${BUDGETS.cls}`;
}

/** One table line: the best figures of the page and what misses the budget. */
export function tableLine(audit: PageAudit): string {
  const { figures } = audit;
  const cells = row([
    audit.path,
    score(figures.performance),
    score(figures.accessibility),
    score(figures.bestPractices),
    score(figures.seo),
    seconds(figures.lcpMs),
    milliseconds(figures.tbtMs),
    cls(figures.cls),
    String(audit.runs),
  ]);
  return `${cells}   ${audit.violations.length === 0 ? 'ok' : `FAIL: ${audit.violations.join(', ')}`}`;
}

/** One run's figures, for progress output. */
export function runLine(path: string, run: number, figures: Figures): string {
  return `${path} run ${run}: perf ${score(figures.performance)}, a11y ${score(figures.accessibility)}, b-p ${score(
    figures.bestPractices,
  )}, SEO ${score(figures.seo)}, LCP ${seconds(figures.lcpMs)}, TBT ${milliseconds(figures.tbtMs)}, CLS ${cls(figures.cls)}`;
}

/** The failing audits of a page, grouped by category, indented under its table line. */
export function failingAuditLines(audit: PageAudit): string[] {
  const lines: string[] = audit.runErrors.map((error) => `    error: ${error}`);
  let category: string | undefined;
  for (const failing of audit.failingAudits) {
    if (failing.category !== category) {
      category = failing.category;
      lines.push(`  ${audit.path} ${category}:`);
    }
    lines.push(`    ${failing.id}: ${failing.title}${failing.displayValue ? ` (${failing.displayValue})` : ''}`);
    for (const example of failing.examples) lines.push(`        ${example}`);
  }
  return lines;
}

/**
 * Audits every path under `baseUrl` in one Chromium, printing as it goes (through `log`) a run
 * line per run, then the table and the failing audits. Returns the pages' audits.
 */
export async function auditSite(
  baseUrl: string,
  { paths = LIGHTHOUSE_PATHS, maxRuns = MAX_RUNS, log = console.log }: { paths?: readonly string[]; maxRuns?: number; log?: (line: string) => void } = {},
): Promise<PageAudit[]> {
  const origin = baseUrl.replace(/\/+$/, '');
  const chrome = await launchChromium();
  const audits: PageAudit[] = [];
  try {
    for (const path of paths) {
      audits.push(
        await auditPage(`${origin}${path}`, { port: chrome.port, maxRuns, onRun: (run, figures) => log(runLine(path, run, figures)) }),
      );
    }
  } finally {
    chrome.kill();
  }
  log('');
  log(tableHeader());
  for (const audit of audits) log(tableLine(audit));
  for (const audit of audits) for (const line of failingAuditLines(audit)) log(line);
  return audits;
}

/**
 * `npm run lighthouse [-- URL [/path ...]] [--runs N]`: audits a running server (default
 * http://localhost:1337, the four budgeted pages). Returns the exit code: 1 when a page misses
 * its budget.
 */
export async function main(argv: string[]): Promise<number> {
  let baseUrl = DEFAULT_BASE_URL;
  const paths: string[] = [];
  let maxRuns = MAX_RUNS;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    if (arg === '--runs') maxRuns = Number(argv[++index]);
    else if (arg.startsWith('--runs=')) maxRuns = Number(arg.slice('--runs='.length));
    else if (arg.startsWith('/')) paths.push(arg);
    else if (/^https?:\/\//.test(arg)) baseUrl = arg;
    else {
      console.error(`npm run lighthouse: unknown argument ${arg}\nusage: npm run lighthouse -- [URL] [/path ...] [--runs N]`);
      return 2;
    }
  }
  if (!Number.isInteger(maxRuns) || maxRuns < 1) {
    console.error('npm run lighthouse: --runs takes a whole number >= 1');
    return 2;
  }
  try {
    const response = await fetch(baseUrl, { signal: AbortSignal.timeout(10_000) });
    await response.body?.cancel();
  } catch (error) {
    console.error(`npm run lighthouse: no server answers at ${baseUrl} (${error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)}); start it with npm start.`);
    return 2;
  }
  const started = Date.now();
  console.log(`Lighthouse on ${baseUrl}: mobile preset, simulated throttling, best of up to ${maxRuns} runs per page`);
  const audits = await auditSite(baseUrl, { paths: paths.length > 0 ? paths : LIGHTHOUSE_PATHS, maxRuns });
  const failed = audits.filter((audit) => audit.violations.length > 0).length;
  console.log(`\n${audits.length - failed} of ${audits.length} pages within budget (${Math.round((Date.now() - started) / 1000)} s)`);
  return failed > 0 ? 1 : 0;
}
