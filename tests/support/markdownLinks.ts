/** Relative links in Markdown files, checked against the files and headings they point to. */

export type MarkdownFiles = Record<string, string>;

type Link = { from: string; target: string };

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/** Text outside fenced code blocks, with inline code spans blanked, line by line. */
function proseLines(markdown: string): string[] {
  const lines: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) lines.push(line.replace(/`[^`]*`/g, ''));
  }
  return lines;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

function links(from: string, markdown: string): Link[] {
  const found: Link[] = [];
  for (const line of proseLines(markdown)) {
    for (const match of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) found.push({ from, target: match[1] });
  }
  return found;
}

function resolve(from: string, path: string): string {
  const parts = from.split('/').slice(0, -1);
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

/**
 * Every relative link of `files` (paths from the repository root) that points to no file, or to a
 * heading its Markdown target lacks. `exists` answers for files that are not in `files`.
 */
export function brokenLinks(files: MarkdownFiles, exists: (path: string) => boolean): string[] {
  const broken: string[] = [];
  for (const [from, markdown] of Object.entries(files)) {
    for (const { target } of links(from, markdown)) {
      if (EXTERNAL.test(target)) continue;
      const [path, anchor] = target.split('#', 2);
      const file = path === '' ? from : resolve(from, decodeURI(path));
      if (!(file in files) && !exists(file)) {
        broken.push(`${from}: ${target} (no file ${file})`);
      } else if (anchor !== undefined && file.endsWith('.md')) {
        const markdownTarget = files[file];
        if (markdownTarget === undefined) {
          broken.push(`${from}: ${target} (${file} is not among the checked files)`);
        } else if (!headingAnchors(markdownTarget).has(decodeURIComponent(anchor))) {
          broken.push(`${from}: ${target} (no heading #${anchor} in ${file})`);
        }
      }
    }
  }
  return broken;
}
