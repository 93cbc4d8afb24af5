#!/usr/bin/env node
'use strict';
// Creates/extends server/.env with random secrets so a fresh checkout boots without manual setup.
// Values already set in the environment win and are not written.
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const envFile = path.resolve(__dirname, '..', '.env');
const rand = () => crypto.randomBytes(16).toString('base64');
const generators = {
  APP_KEYS: () => [rand(), rand(), rand(), rand()].join(','),
  API_TOKEN_SALT: rand,
  ADMIN_JWT_SECRET: rand,
  TRANSFER_TOKEN_SALT: rand,
  JWT_SECRET: rand,
  ENCRYPTION_KEY: rand,
};

const existing = fs.existsSync(envFile) ? fs.readFileSync(envFile, 'utf8') : '';
const definedInFile = new Set(
  existing
    .split(/\r?\n/)
    .map((line) => /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*\S/.exec(line))
    .filter(Boolean)
    .map((m) => m[1])
);

const missing = Object.keys(generators).filter((key) => !definedInFile.has(key) && !process.env[key]);
if (missing.length > 0) {
  const prefix = existing && !existing.endsWith('\n') ? '\n' : '';
  const lines = missing.map((key) => `${key}=${generators[key]()}`).join('\n');
  fs.appendFileSync(envFile, `${prefix}${lines}\n`, { mode: 0o600 });
  console.log(`ensure-env: wrote ${missing.join(', ')} to ${envFile}`);
}
