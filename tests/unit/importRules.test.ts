import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The import rules of `npm run lint` (.oxlintrc.json, docs/development.md) reject a wrong-way import, a
 * circle, or a concept reached outside its room (scripts/lint-rooms.mjs). Each case below is a small project laid out like this one, in a temporary folder, linted with
 * the repository's own .oxlintrc.json: a pull request adding one of these imports fails the lint.
 */
const root = path.resolve(import.meta.dirname, '../..');

type Fixture = Record<string, string>;

const contract: Fixture = {
  'server/src/contract/auth.ts': `export type Session = { jwt: string };\nexport const MIN_LENGTH = 8;\n`,
};
const rules: Fixture = {
  ...contract,
  'machines/rules/validation.ts': `import { MIN_LENGTH } from '../../server/src/contract/auth';\nexport const tooShort = (text: string) => text.length < MIN_LENGTH;\n`,
};
const services: Fixture = {
  ...rules,
  'machines/services/auth.ts': `import type { Session } from '../../server/src/contract/auth';\nexport const logIn = async (): Promise<Session> => ({ jwt: 'x' });\n`,
};
const machines: Fixture = {
  ...services,
  'machines/login.machine.ts': [
    `import { logIn } from './services/auth';`,
    `import { tooShort } from './rules/validation';`,
    `export const loginMachine = { logIn, tooShort };`,
    ``,
  ].join('\n'),
};
const views: Fixture = {
  ...machines,
  'src/hooks/useLogin.ts': `import { loginMachine } from '../../machines/login.machine';\nexport const useLogin = () => loginMachine;\n`,
  'src/components/Field.tsx': `export function Field() {\n  return <input />;\n}\n`,
  'src/features/auth/LogInForm.tsx': `import { Field } from '../../components/Field';\nexport const LogInForm = () => <Field />;\n`,
  'src/features/auth/LogInPage.tsx': [
    `import { useLogin } from '../../hooks/useLogin';`,
    `import { LogInForm } from './LogInForm';`,
    `export function LogInPage() {`,
    `  useLogin();`,
    `  return <LogInForm />;`,
    `}`,
    ``,
  ].join('\n'),
  'src/features/profile/ProfilePage.tsx': `export const ProfilePage = () => <p>Profile</p>;\n`,
  'src/app/router.tsx': [
    `import { LogInPage } from '../features/auth/LogInPage';`,
    `import { ProfilePage } from '../features/profile/ProfilePage';`,
    `export const routes = [LogInPage, ProfilePage];`,
    ``,
  ].join('\n'),
  'server/src/api/auth.ts': `import { MIN_LENGTH } from '../contract/auth';\nexport const minLength = MIN_LENGTH;\n`,
  // The rooms: the e-mail plugin is touched in server/src/mail, tokens are signed and checked in server/src/security/sessions.
  'server/src/mail/deliver.ts': `export const deliver = (strapi, mail) => strapi.plugin('email').provider.send(mail);\n`,
  'server/src/security/sessions/tokens.ts': [
    `import jwt from 'jsonwebtoken';`,
    `export const issue = (strapi, id) => strapi.plugin('users-permissions').service('jwt').issue({ id });`,
    `export const check = (token, secret) => jwt.verify(token, secret);`,
    ``,
  ].join('\n'),
};

type Diagnostic = { code: string; filename: string; message: string };

/** Lints the fixture (the allowed layers plus `added`) with the repository's .oxlintrc.json. */
function lint(added: Fixture): Diagnostic[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'import-rules-'));
  try {
    for (const [file, text] of Object.entries({ ...views, ...added })) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    writeFileSync(path.join(dir, '.oxlintrc.json'), readFileSync(path.join(root, '.oxlintrc.json')));
    mkdirSync(path.join(dir, 'scripts'));
    writeFileSync(path.join(dir, 'scripts/lint-rooms.mjs'), readFileSync(path.join(root, 'scripts/lint-rooms.mjs')));
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    const run = spawnSync(path.join(root, 'node_modules/.bin/oxlint'), ['--format', 'json', 'src', 'machines', 'server'], {
      cwd: dir,
      encoding: 'utf8',
    });
    const report = JSON.parse(run.stdout) as { diagnostics: Diagnostic[] };
    // Exit code and report agree: a finding fails `npm run lint`.
    expect(run.status).toBe(report.diagnostics.length ? 1 : 0);
    return report.diagnostics.map((found) => ({ ...found, filename: path.relative(dir, path.resolve(dir, found.filename)) }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The rules that refused `file`. */
function refusals(diagnostics: Diagnostic[], file: string): string[] {
  return diagnostics.filter((found) => found.filename === file).map((found) => found.code);
}

/** `file` imports `name` from `from` (a file of the allowed layout), against the direction. */
function wrongImport(wrong: string, file: string, from: string, name: string) {
  let specifier = path.relative(path.dirname(file), from).replace(/\.tsx?$/, '');
  if (!specifier.startsWith('.')) specifier = `./${specifier}`;
  const text = `import { ${name} } from '${specifier}';\nexport const uses = [${name}];\n`;
  return { wrong, file, text, rule: 'boundaries(dependencies)' };
}

const wrongWay = [
  wrongImport('a machine importing a view', 'machines/signup.machine.ts', 'src/features/auth/LogInPage.tsx', 'LogInPage'),
  wrongImport('a service importing a machine', 'machines/services/signup.ts', 'machines/login.machine.ts', 'loginMachine'),
  wrongImport('a rule importing a service', 'machines/rules/signup.ts', 'machines/services/auth.ts', 'logIn'),
  wrongImport('the contract importing a rule', 'server/src/contract/signup.ts', 'machines/rules/validation.ts', 'tooShort'),
  wrongImport(
    'a feature importing another feature',
    'src/features/profile/ProfileLogIn.tsx',
    'src/features/auth/LogInForm.tsx',
    'LogInForm',
  ),
  wrongImport('a component importing a feature', 'src/components/LogInLink.tsx', 'src/features/auth/LogInPage.tsx', 'LogInPage'),
  wrongImport('a hook importing the app', 'src/hooks/useRoutes.ts', 'src/app/router.tsx', 'routes'),
  wrongImport('the Strapi app importing the SPA', 'server/src/api/login.ts', 'machines/rules/validation.ts', 'tooShort'),
  {
    wrong: 'a feature lazy-loading another feature',
    file: 'src/features/profile/lazyLogIn.ts',
    text: `export const loadLogIn = () => import('../auth/LogInPage');\n`,
    rule: 'boundaries(dependencies)',
  },
  {
    wrong: 'a machine importing React',
    file: 'machines/profile.machine.ts',
    text: `import { useState } from 'react';\nexport const profileMachine = { useState };\n`,
    rule: 'eslint(no-restricted-imports)',
  },
  {
    wrong: 'a machine reaching for the browser',
    file: 'machines/logout.machine.ts',
    text: `export const logoutMachine = { go: (to: string) => window.location.assign(to) };\n`,
    rule: 'eslint(no-restricted-globals)',
  },
  {
    wrong: 'a server module sending through the e-mail plugin',
    file: 'server/src/api/welcome.ts',
    text: `export const welcome = (strapi) => strapi.plugin('email').service('email').send({ to: 'a@example.com' });\n`,
    rule: 'rooms(email-plugin)',
  },
  {
    wrong: 'a controller signing a token with the jwt service',
    file: 'server/src/api/passkey.ts',
    text: `export const signIn = (strapi, id) => strapi.plugin('users-permissions').service('jwt').issue({ id });\n`,
    rule: 'rooms(token-signing)',
  },
  {
    wrong: 'a module verifying a token with jsonwebtoken',
    file: 'server/src/policies/token.ts',
    text: `import jwt from 'jsonwebtoken';\nexport const check = (token, secret) => jwt.verify(token, secret);\n`,
    rule: 'rooms(token-signing)',
  },
  // A circle of two files, even inside one layer: both ends are refused.
  {
    wrong: 'a circle (one end)',
    file: 'machines/rules/first.ts',
    text: `import { second } from './second';\nexport const first = () => second;\n`,
    rule: 'import(no-cycle)',
  },
  {
    wrong: 'a circle (other end)',
    file: 'machines/rules/second.ts',
    text: `import { first } from './first';\nexport const second = () => first;\n`,
    rule: 'import(no-cycle)',
  },
];

describe('import rules (npm run lint)', () => {
  it('accept imports that run one way: app -> views -> hooks -> machines -> services -> rules -> contract', () => {
    expect(lint({})).toEqual([]);
  });

  describe('refuse', () => {
    // One lint of all the wrong files at once: each file breaks one rule.
    let diagnostics: Diagnostic[] = [];
    beforeAll(() => {
      diagnostics = lint(Object.fromEntries(wrongWay.map(({ file, text }) => [file, text])));
    });

    it.each(wrongWay)('$wrong ($file: $rule)', ({ file, rule }) => {
      expect(refusals(diagnostics, file)).toEqual([rule]);
    });

    it('nothing in the allowed layers', () => {
      const wrongFiles = new Set(wrongWay.map(({ file }) => file));
      expect(diagnostics.filter((found) => !wrongFiles.has(found.filename))).toEqual([]);
    });
  });
});
