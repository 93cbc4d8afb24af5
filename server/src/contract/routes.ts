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
  '/signup',
  '/login',
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

const segmentsOf = (pathname: string) => pathname.split('/').filter(Boolean);

/**
 * Whether `pathname` opens one of the SPA's routes, matched as its router matches: letters in any case,
 * trailing slashes aside, percent-encoding decoded, and a `$param` standing for one segment.
 */
export function isSpaRoute(pathname: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  const segments = segmentsOf(decoded.toLowerCase());
  return SPA_ROUTES.some((route) => {
    const pattern = segmentsOf(route);
    return pattern.length === segments.length && pattern.every((part, index) => part.startsWith('$') || part === segments[index]);
  });
}
