// `npm run serve` (and so `npm start`): the built app in production mode on the embedded defaults.
// With no Stripe keys and no PAYMENTS_MODE it opts into the offline payment sandbox explicitly and
// says so: a production server refuses to fall back to the sandbox silently (docs/security.md).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const env = { ...process.env, NODE_ENV: process.env.NODE_ENV || 'production' };
if (!env.STRIPE_SECRET_KEY && !env.PAYMENTS_MODE) {
  env.PAYMENTS_MODE = 'sandbox';
  console.warn(
    'npm start: no STRIPE_SECRET_KEY set, so payments run in the offline SANDBOX (PAYMENTS_MODE=sandbox): ' +
      'card 4242 4242 4242 4242 "pays" and nothing is charged. Set the Stripe keys for real payments.',
  );
}

const serverDir = fileURLToPath(new URL('../server/', import.meta.url));
const child = spawn('npm', ['run', 'start'], { cwd: serverDir, env, stdio: 'inherit' });
// Pass stop signals on, so the server can finish in-flight requests.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
