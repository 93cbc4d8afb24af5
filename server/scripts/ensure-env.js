#!/usr/bin/env node
'use strict';
// Creates/extends server/.env with random secrets so a fresh checkout boots without manual setup.
// A secret that is missing, empty or a known placeholder (e.g. copied from .env.example or Strapi's
// "tobemodified") gets a new random value; real values are kept. Values set in the environment win
// and are not written (a placeholder there is refused at start in production: src/security/production-safety.ts).
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const envFile = path.resolve(__dirname, '..', '.env');
const rand = () => crypto.randomBytes(24).toString('base64');
const generators = {
  APP_KEYS: () => [rand(), rand(), rand(), rand()].join(','),
  API_TOKEN_SALT: rand,
  ADMIN_JWT_SECRET: rand,
  TRANSFER_TOKEN_SALT: rand,
  JWT_SECRET: rand,
  ENCRYPTION_KEY: rand,
};
const PLACEHOLDER = /^(tobemodified\d*|changeme|change-me|change_me|secret|your-secret|replace-me|example|test|default)$/i;

const unquote = (value) => value.trim().replace(/^(['"])(.*)\1$/, '$2');
const unusable = (value) => {
  const parts = unquote(value)
    .split(',')
    .map((part) => part.trim());
  return parts.every((part) => part === '') || parts.some((part) => PLACEHOLDER.test(part));
};

const lines = fs.existsSync(envFile) ? fs.readFileSync(envFile, 'utf8').split(/\r?\n/) : [];
const written = [];
const defined = new Set();
const kept = lines.map((line) => {
  const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/.exec(line);
  if (!match || !(match[1] in generators)) return line;
  const [, key, value] = match;
  defined.add(key);
  if (process.env[key] || !unusable(value)) return line;
  written.push(key);
  return `${key}=${generators[key]()}`;
});
const missing = Object.keys(generators).filter((key) => !defined.has(key) && !process.env[key]);
for (const key of missing) {
  if (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  kept.push(`${key}=${generators[key]()}`);
  written.push(key);
}
if (written.length > 0) {
  fs.writeFileSync(envFile, `${kept.join('\n').replace(/\n*$/, '')}\n`, { mode: 0o600 });
  console.log(`ensure-env: wrote random ${written.join(', ')} to ${envFile}`);
}
