import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import { SERVER_DIR, bootStrapi } from '../helpers/strapi';
import { SECRET_VARIABLES, secretProblem } from '../../src/security/production-safety';

/** A production deploy with forgeable secrets or a silent payment sandbox does not start. */

const good = () => crypto.randomBytes(24).toString('base64');
const productionEnv = (overrides: Record<string, string> = {}) => ({
  NODE_ENV: 'production',
  APP_KEYS: `${good()},${good()}`,
  API_TOKEN_SALT: good(),
  ADMIN_JWT_SECRET: good(),
  TRANSFER_TOKEN_SALT: good(),
  JWT_SECRET: good(),
  ENCRYPTION_KEY: good(),
  STRIPE_SECRET_KEY: '',
  PAYMENTS_MODE: '',
  ...overrides,
});

describe('start-up in production', () => {
  it('refuses a placeholder JWT secret with a clear message', async () => {
    await expect(bootStrapi({ env: productionEnv({ JWT_SECRET: 'tobemodified', PAYMENTS_MODE: 'sandbox' }) })).rejects.toThrow(
      /Refusing to start in production[\s\S]*JWT_SECRET is a placeholder value/,
    );
  });

  it('refuses to fall back to the payment sandbox unless PAYMENTS_MODE=sandbox says so', async () => {
    await expect(bootStrapi({ env: productionEnv() })).rejects.toThrow(/payments would fall back to the offline sandbox/);
  });

  it('starts with real secrets and the sandbox chosen on purpose', async () => {
    const app = await bootStrapi({ env: productionEnv({ PAYMENTS_MODE: 'sandbox' }) });
    try {
      const res = await fetch(`${app.baseUrl}/api/payments/config`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { mode: string }).mode).toBe('sandbox');
    } finally {
      await app.stop();
    }
  });
});

describe('.env.example and ensure-env', () => {
  it('.env.example holds no usable secret', () => {
    const example = fs.readFileSync(path.join(SERVER_DIR, '.env.example'), 'utf8');
    for (const name of SECRET_VARIABLES) {
      const line = example.split('\n').find((candidate) => candidate.startsWith(`${name}=`));
      const value = line?.slice(name.length + 1).replace(/^"|"$/g, '');
      expect(secretProblem(value), name).not.toBeNull();
    }
  });

  it('replaces placeholder and empty secrets copied from an example, and keeps real ones', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-env-'));
    fs.mkdirSync(path.join(dir, 'scripts'));
    fs.copyFileSync(path.join(SERVER_DIR, 'scripts', 'ensure-env.js'), path.join(dir, 'scripts', 'ensure-env.js'));
    const kept = good();
    fs.writeFileSync(
      path.join(dir, '.env'),
      [
        'HOST=0.0.0.0',
        'APP_KEYS="toBeModified1,toBeModified2"',
        'JWT_SECRET=tobemodified',
        `ADMIN_JWT_SECRET=${kept}`,
        'API_TOKEN_SALT=',
        '',
      ].join('\n'),
    );
    const cleanEnv = Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !(SECRET_VARIABLES as readonly string[]).includes(key)),
    );
    execFileSync(process.execPath, [path.join(dir, 'scripts', 'ensure-env.js')], { env: cleanEnv });
    const written = Object.fromEntries(
      fs
        .readFileSync(path.join(dir, '.env'), 'utf8')
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    fs.rmSync(dir, { recursive: true, force: true });
    expect(written.HOST).toBe('0.0.0.0');
    expect(written.ADMIN_JWT_SECRET).toBe(kept);
    for (const name of SECRET_VARIABLES) expect(secretProblem(written[name]), name).toBeNull();
  });
});
