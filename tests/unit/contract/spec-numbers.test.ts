import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { usernameError } from '../../../server/src/contract/fieldRules';
import { changePasswordBodyError, goalsError, informationError, passwordChangeError } from '../../../server/src/contract/profileRules';
import { profileUpdateBody } from '../../../server/src/contract/profileUpdate';
import { firstError, parseBody } from '../../../server/src/contract/schema';
import { resetCodeError } from '../../../server/src/contract/passwords';
import { weightEntryBodySchema } from '../../../server/src/contract/progress';

/**
 * Issue 29: each of the spec's numbers (SPEC §9: username minimum 3, new password minimum 6, weight
 * 30-300 kg, height 100-250 cm) is written once, in the contract, and the schemas built on it refuse
 * just past each boundary with the spec's words (SPEC §5), on the form's side and the server's.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SOURCES = ['server/src', 'machines', 'src'];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative] : [];
  });
}

/** The code without comments (a `//` inside a string, as in a URL, is kept). */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/**
 * `n` as a limit: compared with, given as a min or max, passed to a length or value check, or inside a
 * string (a message naming it). Arithmetic such as `heightCm / 100` (cm to m) is not a limit.
 */
function limitPatterns(n: number): RegExp[] {
  const number = `${n}(?![\\d.])`;
  return [
    new RegExp(`[<>]=?\\s*${number}`),
    new RegExp(`(?<![\\d.])${n}\\s*[<>]`),
    new RegExp(`\\w*(?:min|max|length)\\w*\\s*[:=]\\s*${number}`, 'i'),
    new RegExp(`(?:length|value|min|max)\\w*\\(\\s*${number}`, 'i'),
    new RegExp(`['"\`][^'"\`]*(?<![\\d.])${number}[^'"\`]*['"\`]`),
  ];
}

type Hit = { file: string; line: string };

const files = SOURCES.flatMap(sourceFiles).map((file) => ({
  file,
  lines: withoutComments(readFileSync(path.join(ROOT, file), 'utf8')).split('\n'),
}));

/** Every line that states `n` as a limit and names the concept (`about`). */
function limitsWritten(n: number, about: RegExp): Hit[] {
  const patterns = limitPatterns(n);
  return files.flatMap(({ file, lines }) =>
    lines.filter((line) => about.test(line) && patterns.some((pattern) => pattern.test(line))).map((line) => ({ file, line: line.trim() })),
  );
}

/** A line about a body weight: not the BMI categories' "Overweight" (BMI 30 is another of the spec's numbers). */
const WEIGHT = /Weight|WEIGHT|(?<![A-Za-z])weight|[kK][gG]\b/;

const SPEC_NUMBERS = [
  { what: 'username minimum', n: 3, about: /username/i, declared: 'server/src/contract/fieldRules.ts' },
  { what: 'new password minimum', n: 6, about: /password/i, declared: 'server/src/contract/passwords.ts' },
  { what: 'weight minimum', n: 30, about: WEIGHT, declared: 'server/src/contract/profileRules.ts' },
  { what: 'weight maximum', n: 300, about: WEIGHT, declared: 'server/src/contract/profileRules.ts' },
  { what: 'height minimum', n: 100, about: /height|\bcm\b/i, declared: 'server/src/contract/profileRules.ts' },
  { what: 'height maximum', n: 250, about: /height|\bcm\b/i, declared: 'server/src/contract/profileRules.ts' },
];

describe('the spec numbers are written once, in the contract', () => {
  it('scans the SPA, the machines and the server', () => {
    expect(files.length).toBeGreaterThan(200);
    // The scan finds a limit when it is there (a guard against a pattern that matches nothing).
    expect(limitPatterns(6).some((pattern) => pattern.test('if (password.length < 6) throw'))).toBe(true);
    expect(limitPatterns(250).some((pattern) => pattern.test("'Height must be between 100-250 cm'"))).toBe(true);
    expect(limitPatterns(100).some((pattern) => pattern.test('const metres = heightCm / 100;'))).toBe(false);
  });

  it.each(SPEC_NUMBERS)('the $what ($n) once: in $declared', ({ n, about, declared }) => {
    const hits = limitsWritten(n, about);
    expect(hits.map((hit) => hit.file)).toEqual([declared]);
  });

  it('no message names a limit in its own digits: each is built from the declaration', () => {
    const written = files.flatMap(({ file, lines }) =>
      lines.filter((line) => /['"`][^'"`]*(?:at least \d+ characters|between \d+-\d+)/.test(line)).map((line) => `${file}: ${line.trim()}`),
    );
    expect(written).toEqual([]);
  });
});

const goodUpdate = { username: 'tbone', email: 'tbone@example.com' };
/** The server's first broken rule for a PUT /api/users/:id body, or null. */
const serverSays = (body: unknown) => {
  const checked = parseBody(profileUpdateBody, body);
  return checked.ok ? null : checked.message;
};
const bmi = (height: number, currentWeight: number) => ({ bmi: { height, currentWeight, Gender: 'Male' } });

describe('the schemas hold each number at its boundary, with the spec’s words', () => {
  it('username: at least 3 characters after trimming', () => {
    const message = 'Username must be at least 3 characters';
    expect(usernameError('ab')).toBe(message);
    expect(usernameError('abc')).toBeNull();
    expect(informationError({ ...goodUpdate, username: ' ab ' })).toBe(message);
    expect(informationError({ ...goodUpdate, username: ' abc ' })).toBeNull();
    expect(serverSays({ username: ' ab ' })).toBe(message);
    expect(serverSays({ username: ' abc ' })).toBeNull();
  });

  it('new password: at least 6 characters, on reset and on change', () => {
    const reset = (password: string) => resetCodeError({ code: 'ABCDE12345', password, passwordConfirmation: password });
    expect(reset('12345')).toBe('Password should be at least 6 characters.');
    expect(reset('123456')).toBeNull();
    const change = (password: string) => passwordChangeError({ currentPassword: 'old-one', password, passwordConfirmation: password });
    expect(change('12345')).toBe('New password must be at least 6 characters');
    expect(change('123456')).toBeNull();
    expect(changePasswordBodyError({ currentPassword: 'old-one', password: '12345', passwordConfirmation: '12345' })).toBe(
      'New password must be at least 6 characters',
    );
    expect(changePasswordBodyError({ currentPassword: 'old-one', password: '123456', passwordConfirmation: '123456' })).toBeNull();
  });

  it('weight: 30-300 kg in the profile, the goal and the weight history', () => {
    const message = 'Weight must be between 30-300 kg';
    for (const [weight, expected] of [
      [29.9, message],
      [30, null],
      [300, null],
      [300.1, message],
    ] as const) {
      expect(informationError({ ...goodUpdate, height: 180, currentWeight: weight })).toBe(expected);
      expect(serverSays(bmi(180, weight))).toBe(expected);
      expect(firstError(weightEntryBodySchema(new Date('2025-06-01T00:00:00Z')), { date: '2025-01-01', weight })).toBe(expected);
      const goal = expected && 'Goal weight must be between 30-300 kg';
      expect(goalsError({ goal_weight: weight })).toBe(goal);
      expect(serverSays({ goal_weight: weight })).toBe(goal);
    }
  });

  it('height: 100-250 cm', () => {
    const message = 'Height must be between 100-250 cm';
    for (const [height, expected] of [
      [99.9, message],
      [100, null],
      [250, null],
      [250.1, message],
    ] as const) {
      expect(informationError({ ...goodUpdate, height, currentWeight: 80 })).toBe(expected);
      expect(serverSays(bmi(height, 80))).toBe(expected);
    }
  });
});
