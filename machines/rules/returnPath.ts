import type { ReturnPath } from './navigation';

/**
 * A return path is accepted only when it stays on this site: it starts with a
 * single "/" (not "//host" or "/\host", which browsers treat as another origin).
 */
export function safeReturnPath(candidate: unknown, fallback = '/'): ReturnPath {
  if (typeof candidate !== 'string') return fallback as ReturnPath;
  if (!candidate.startsWith('/') || candidate.startsWith('//') || candidate.startsWith('/\\')) {
    return fallback as ReturnPath;
  }
  // oxlint-disable-next-line no-control-regex -- control characters are what this looks for
  if (/[\u0000-\u001f]/.test(candidate)) return fallback as ReturnPath;
  return candidate as ReturnPath;
}
