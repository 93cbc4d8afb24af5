import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokenLinks, headingAnchors, type MarkdownFiles } from '../support/markdownLinks';

const ROOT = join(import.meta.dirname, '../..');

function markdownUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) =>
      relative(ROOT, join(ROOT, dir, name))
        .split('\\')
        .join('/'),
    );
}

function read(paths: string[]): MarkdownFiles {
  return Object.fromEntries(paths.map((path) => [path, readFileSync(join(ROOT, path), 'utf8')]));
}

describe('README.md and docs/', () => {
  const files = read(['README.md', ...markdownUnder('docs')]);

  it('link only to files and headings that exist', () => {
    expect(Object.keys(files)).toContain('docs/spec/SPEC.md');
    expect(brokenLinks(files, (path) => existsSync(join(ROOT, path)))).toEqual([]);
  });
});

describe('brokenLinks', () => {
  const files: MarkdownFiles = {
    'README.md': [
      '# Title',
      'See [the guide](docs/guide.md#setting-it-up-npm-start), [code](src/main.ts) and [the site](https://example.com).',
      '`[not a link](nowhere.md)`',
      '```',
      '[also not a link](nowhere.md)',
      '```',
      '[gone](docs/missing.md), [no such heading](docs/guide.md#nothing), [here](#title), [not here](#other)',
    ].join('\n'),
    'docs/guide.md': '# Guide\n\n## Setting it up: `npm start`\n\n[back](../README.md#title)',
  };

  it('reports missing files and headings, and nothing else', () => {
    expect(brokenLinks(files, (path) => path === 'src/main.ts')).toEqual([
      'README.md: docs/missing.md (no file docs/missing.md)',
      'README.md: docs/guide.md#nothing (no heading #nothing in docs/guide.md)',
      'README.md: #other (no heading #other in README.md)',
    ]);
  });

  it('makes anchors the way GitHub does', () => {
    const headings = '# 2. Screens and routes\n## Profile fields: `PUT /api/users/:id`\n## Tests\n## Tests';
    expect([...headingAnchors(headings)]).toEqual(['2-screens-and-routes', 'profile-fields-put-apiusersid', 'tests', 'tests-1']);
  });
});
