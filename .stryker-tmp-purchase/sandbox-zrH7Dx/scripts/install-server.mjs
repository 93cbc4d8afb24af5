// @ts-nocheck
// The server keeps its own lockfile (Strapi's admin needs React 18, the SPA React 19),
// so the root install installs it as a second, separate tree.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const serverDir = fileURLToPath(new URL('../server/', import.meta.url));
const command = existsSync(new URL('../server/package-lock.json', import.meta.url)) ? 'ci' : 'install';
const result = spawnSync('npm', [command, '--no-audit', '--no-fund'], { cwd: serverDir, stdio: 'inherit' });
process.exit(result.status ?? 1);
