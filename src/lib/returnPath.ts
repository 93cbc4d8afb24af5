/**
 * A return path is accepted only when it stays on this site: it starts with a
 * single "/" (not "//host" or "/\host", which browsers treat as another origin).
 */
export function safeReturnPath(candidate: unknown, fallback = '/'): string {
  if (typeof candidate !== 'string') return fallback;
  if (!candidate.startsWith('/') || candidate.startsWith('//') || candidate.startsWith('/\\')) {
    return fallback;
  }
  if (/[\u0000-\u001f]/.test(candidate)) return fallback;
  return candidate;
}
