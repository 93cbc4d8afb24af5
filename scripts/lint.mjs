// `npm run lint`: every static check, each timed; all run even when one fails, so one run shows every
// problem. Exits non-zero if any failed. What each enforces: docs/development.md "Lint".
import { spawnSync } from 'node:child_process';

const checks = [
  ['lint:code', 'oxlint: correctness, React hooks, import direction and cycles'],
  ['lint:format', 'oxfmt --check: formatting'],
  ['lint:unused', 'knip: unused files, exports and dependencies'],
];

const started = performance.now();
const failed = [];
for (const [script, what] of checks) {
  const start = performance.now();
  const { status } = spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit' });
  const seconds = ((performance.now() - start) / 1000).toFixed(1);
  console.log(`${status === 0 ? 'ok  ' : 'FAIL'} ${script} (${what}) in ${seconds} s`);
  if (status !== 0) failed.push(script);
}
const total = ((performance.now() - started) / 1000).toFixed(1);
console.log(failed.length ? `lint failed (${failed.join(', ')}) in ${total} s` : `lint passed in ${total} s`);
process.exitCode = failed.length ? 1 : 0;
