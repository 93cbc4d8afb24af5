// Prints the size of what the browser loads first and checks the production bundle's budgets.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
// Sign-up, the password log-in and its second step load with their pages (issue 29), the step-up actor starts
// at first paint; the 111 KB budget is not raised (docs/testing.md#bundle-budget).
const ENTRY_BUDGET_KB = 111;
// The profile shell (src/entry-profile-shell.ts): inline in /profile's HTML, read before that page's first paint.
const PROFILE_SHELL = 'profile-shell.js';
const PROFILE_SHELL_BUDGET_KB = 4;

const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]);
const gzipKb = (file) => gzipSync(readFileSync(path.join(dist, file))).length / 1024;

let initialJsKb = 0;
console.log('The app entry and stylesheet (gzip; a prerendered page fetches the entry after its first paint):');
for (const file of initial) {
  const kb = gzipKb(file);
  if (file.endsWith('.js')) initialJsKb += kb;
  console.log(`  ${file.padEnd(48)} ${kb.toFixed(1).padStart(7)} KB`);
}
console.log(`  ${'JavaScript total'.padEnd(48)} ${initialJsKb.toFixed(1).padStart(7)} KB (budget ${ENTRY_BUDGET_KB} KB)`);
const profileShellKb = existsSync(path.join(dist, PROFILE_SHELL)) ? gzipKb(PROFILE_SHELL) : null;
console.log("The profile shell, inline in the HTML of /profile (gzip; paints the member's profile before the app loads):");
console.log(`  ${PROFILE_SHELL.padEnd(48)} ${(profileShellKb?.toFixed(1) ?? '-').padStart(7)} KB (budget ${PROFILE_SHELL_BUDGET_KB} KB)`);

const lazy = readdirSync(path.join(dist, 'assets')).filter((file) => !initial.includes(`assets/${file}`) && !/\.(br|gz)$/.test(file));
console.log('Lazy chunks (gzip):');
for (const file of lazy) console.log(`  assets/${file.padEnd(41)} ${gzipKb(`assets/${file}`).toFixed(1).padStart(7)} KB`);

// The build's precompressed copies (scripts/precompress.ts; same extensions and 1 KB floor), which the
// server sends instead of compressing on each request: present, smaller, and the same bytes unpacked.
const PRECOMPRESSED = ['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.xml', '.webmanifest'];
const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.'))
    .flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
const missingVariants = [];
for (const file of walk(dist)) {
  if (!PRECOMPRESSED.includes(path.extname(file)) || statSync(file).size < 1024) continue;
  const raw = readFileSync(file);
  for (const [suffix, unpack] of [
    ['.br', brotliDecompressSync],
    ['.gz', gunzipSync],
  ]) {
    const variant = `${file}${suffix}`;
    const ok = existsSync(variant) && statSync(variant).size < raw.length && unpack(readFileSync(variant)).equals(raw);
    if (!ok) missingVariants.push(path.relative(dist, variant));
  }
}
console.log('Precompressed by the build (raw / brotli / gzip):');
for (const file of initial) {
  const size = (suffix) => statSync(path.join(dist, file + suffix), { throwIfNoEntry: false })?.size;
  const kb = (bytes) => (bytes === undefined ? '-' : `${(bytes / 1024).toFixed(1)} KB`).padStart(9);
  console.log(`  ${file.padEnd(48)} ${kb(size(''))} ${kb(size('.br'))} ${kb(size('.gz'))}`);
}

const problems = [];
if (missingVariants.length) problems.push(`missing or wrong precompressed files: ${missingVariants.join(', ')}`);
if (initialJsKb > ENTRY_BUDGET_KB) problems.push(`initial JavaScript ${initialJsKb.toFixed(1)} KB is over ${ENTRY_BUDGET_KB} KB`);
if (profileShellKb === null) problems.push(`dist/${PROFILE_SHELL} is missing (npm run build builds it)`);
else if (profileShellKb > PROFILE_SHELL_BUDGET_KB)
  problems.push(`the profile shell ${profileShellKb.toFixed(1)} KB is over ${PROFILE_SHELL_BUDGET_KB} KB`);
const allJs = readdirSync(path.join(dist, 'assets')).filter((file) => file.endsWith('.js'));
if (allJs.some((file) => readFileSync(path.join(dist, 'assets', file), 'utf8').includes('createBrowserInspector'))) {
  problems.push('the Stately inspector is in the production bundle');
}
if (problems.length) {
  console.error(`Bundle checks failed: ${problems.join('; ')}`);
  process.exit(1);
}
console.log('Budgets met; the Stately inspector is not in the bundle; every compressible file has its .br and .gz.');
