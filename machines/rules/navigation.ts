/** A path the login form's `from` or a saved social redirect may return to: checked by `safeReturnPath`. */
export type ReturnPath = string & { readonly __brand: 'ReturnPath' };

/**
 * Every route of the app. Machines name routes with it, and src/app/router.tsx fails to compile
 * unless it is exactly the route tree's paths, so a machine can't name a route that doesn't exist.
 * (Machines can't take the router's own `ToOptions`: the router's context holds the auth actor,
 * whose type would then depend on itself.)
 */
export type AppPath =
  | '/'
  | '/about'
  | '/company-details'
  | '/features'
  | '/contact'
  | '/privacy-policy'
  | '/terms'
  | '/refund-policy'
  | '/signup'
  | '/login'
  | '/reset-password'
  | '/delete-profile'
  | '/email-confirmation'
  | '/email-change/confirm'
  | '/email-change/cancel'
  | '/profile'
  | '/bmi'
  | '/auth/$provider/callback'
  | '/$';

/** Where a machine sends the person next: a route (with /login's `from`), or a checked return path. */
export type NavigationRequest = ({ to: AppPath; search?: { from?: ReturnPath } } | { href: ReturnPath }) & { replace?: boolean };
