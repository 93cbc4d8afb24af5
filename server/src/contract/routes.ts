/**
 * The SPA's routes, as its router writes them (src/app/router.tsx builds exactly these, and a type check there
 * proves it). The server answers any other path with 404 (the shell, marked noindex, whose router then takes
 * the visitor to / as SPEC §2 says), and robots.txt and the sitemap are checked against this list.
 */
export const SPA_ROUTES = [
  '/',
  '/about',
  '/company-details',
  '/features',
  '/contact',
  '/privacy-policy',
  '/terms',
  '/refund-policy',
  '/login',
  '/signup',
  '/reset-password',
  '/delete-profile',
  '/email-confirmation',
  '/email-change/confirm',
  '/email-change/cancel',
  '/profile',
  '/bmi',
  '/auth/$provider/callback',
] as const;

export type SpaRoute = (typeof SPA_ROUTES)[number];

/**
 * The one spelling of a path as the router reads it: percent-escapes decoded except those of reserved characters
 * (an escaped "/" stays inside its segment), letters in lower case, no trailing slash, and one leading slash ("//about"
 * is "/about"). Null when it does not decode. A route's own path is its canonical one; any other spelling is
 * redirected there (server/src/prerender/prerender.ts).
 */
export function canonicalSpaPath(pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURI(pathname);
  } catch {
    return null;
  }
  return `/${decoded.toLowerCase().replace(/^\/+/, '').replace(/\/+$/, '')}`;
}

const segmentsOf = (pathname: string) => pathname.split('/').slice(1);

/**
 * Whether `pathname` opens one of the SPA's routes as its router matches them: in its canonical spelling
 * (canonicalSpaPath), segment by segment, a `$param` standing for one segment that is not empty.
 */
export function isSpaRoute(pathname: string): boolean {
  const canonical = canonicalSpaPath(pathname);
  if (canonical === null) return false;
  const segments = canonical === '/' ? [] : segmentsOf(canonical);
  return SPA_ROUTES.some((route) => {
    const pattern = route === '/' ? [] : segmentsOf(route);
    return (
      pattern.length === segments.length &&
      pattern.every((part, index) => (part.startsWith('$') ? segments[index] !== '' : part === segments[index]))
    );
  });
}
