// Prints the size of what the browser loads first and checks the production bundle's budgets.
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const ENTRY_BUDGET_KB = 110;

const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]);
const gzipKb = (file) => gzipSync(readFileSync(path.join(dist, file))).length / 1024;

let initialJsKb = 0;
console.log('Loaded before first paint (gzip):');
for (const file of initial) {
  const kb = gzipKb(file);
  if (file.endsWith('.js')) initialJsKb += kb;
  console.log(`  ${file.padEnd(48)} ${kb.toFixed(1).padStart(7)} KB`);
}
console.log(`  ${'JavaScript total'.padEnd(48)} ${initialJsKb.toFixed(1).padStart(7)} KB (budget ${ENTRY_BUDGET_KB} KB)`);

const lazy = readdirSync(path.join(dist, 'assets')).filter((file) => !initial.includes(`assets/${file}`));
console.log('Lazy chunks (gzip):');
for (const file of lazy) console.log(`  assets/${file.padEnd(41)} ${gzipKb(`assets/${file}`).toFixed(1).padStart(7)} KB`);

const problems = [];
if (initialJsKb > ENTRY_BUDGET_KB) problems.push(`initial JavaScript ${initialJsKb.toFixed(1)} KB is over ${ENTRY_BUDGET_KB} KB`);
const allJs = readdirSync(path.join(dist, 'assets')).filter((file) => file.endsWith('.js'));
if (allJs.some((file) => readFileSync(path.join(dist, 'assets', file), 'utf8').includes('createBrowserInspector'))) {
  problems.push('the Stately inspector is in the production bundle');
}
if (problems.length) {
  console.error(`Budget exceeded: ${problems.join('; ')}`);
  process.exit(1);
}
console.log('Budgets met; the Stately inspector is not in the bundle.');
