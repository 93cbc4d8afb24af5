// @ts-nocheck
// `npm run dev`: Strapi in watch mode plus Vite with hot reload, proxying /api and /uploads to Strapi.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const children = [
  spawn('npm', ['run', 'develop'], { cwd: `${root}/server`, stdio: 'inherit' }),
  spawn('npx', ['vite'], { cwd: root, stdio: 'inherit' }),
];

const stopAll = (code = 0) => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
};
for (const child of children) child.on('exit', (code) => stopAll(code ?? 0));
process.on('SIGINT', () => stopAll());
process.on('SIGTERM', () => stopAll());
