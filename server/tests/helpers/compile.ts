import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server's TypeScript compiled into server/dist once per test run, not once per test file:
 * even with nothing changed, a compile costs about 20 s of CPU. server/tests/global-setup.ts
 * compiles before the workers start and leaves the time in COMPILED_AT for them (they inherit
 * the runner's environment); a worker compiles again only when a source is newer (watch mode).
 */

export const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DIST_DIR = path.join(SERVER_DIR, 'dist');
const COMPILED_AT = 'CARNIVO_TEST_SERVER_COMPILED_AT';
const BUILD_INFO = path.join(DIST_DIR, 'tsconfig.tsbuildinfo');
const COMPILED_CONFIG = path.join(DIST_DIR, 'config', 'database.js');
/** Written after each compile here: build info newer than it came from another compiler run. */
const COMPILED_MARK = path.join(DIST_DIR, '.compiled-by-tests');
const SOURCES = ['src', 'config', 'database'].map((dir) => path.join(SERVER_DIR, dir));

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Compiles the server (incremental), as `strapi build` does for its server part; throws with the compiler's output. */
export function compileServer(): void {
  const started = Date.now();
  // A `tsc --noEmit` of the server leaves its build info in dist with no output: the incremental compile would
  // then emit nothing (for a first compile, or for every file changed since the last one). Build info written
  // after this helper's last compile is such a one.
  const compiledAt = fs.existsSync(COMPILED_MARK) && fs.existsSync(COMPILED_CONFIG) ? fs.statSync(COMPILED_MARK).mtimeMs : 0;
  if (!compiledAt || (fs.existsSync(BUILD_INFO) && fs.statSync(BUILD_INFO).mtimeMs > compiledAt)) fs.rmSync(BUILD_INFO, { force: true });
  const script =
    "require('@strapi/strapi').compileStrapi({ appDir: process.cwd() })" +
    '.then(() => process.exit(0), (error) => { console.error(error); process.exit(1); })';
  const result = spawnSync(process.execPath, ['-e', script], { cwd: SERVER_DIR, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`compiling the server failed:\n${result.stdout}\n${result.stderr}`);
  // Dated when the compile started: a source saved while it ran is newer, so the next run compiles again.
  fs.writeFileSync(COMPILED_MARK, new Date(started).toISOString());
  fs.utimesSync(COMPILED_MARK, started / 1000, started / 1000);
  process.env[COMPILED_AT] = String(started);
}

/**
 * Compiles unless server/dist is newer than every source: compiled by this run (COMPILED_AT) or,
 * when `fromDist`, by an earlier compile here (its mark; after `npm run build`, the first run compiles again).
 */
export function compileServerIfStale({ fromDist = false } = {}): void {
  // Not the build info's time: a `tsc --noEmit` writes that too, and compiles nothing.
  const builtAt = fromDist && fs.existsSync(COMPILED_MARK) ? fs.statSync(COMPILED_MARK).mtimeMs : 0;
  const compiledAt = Math.max(Number(process.env[COMPILED_AT] ?? 0), builtAt);
  const stale =
    !compiledAt || !fs.existsSync(COMPILED_CONFIG) || SOURCES.some((dir) => fs.existsSync(dir) && newestSource(dir) >= compiledAt);
  if (stale) compileServer();
  else process.env[COMPILED_AT] = String(compiledAt);
}
