import type { SpaRoute } from '../../server/src/contract/routes';

/** A path the login form's `from` or a saved social redirect may return to: checked by `safeReturnPath`. */
export type ReturnPath = string & { readonly __brand: 'ReturnPath' };

/**
 * Every route of the app (the contract's route table, and the router's catch-all). Machines name routes with it, and src/app/router.tsx fails to compile
 * unless it is exactly the route tree's paths, so a machine can't name a route that doesn't exist.
 * (Machines can't take the router's own `ToOptions`: the router's context holds the auth actor,
 * whose type would then depend on itself.)
 */
export type AppPath = SpaRoute | '/$';

/** Where a machine sends the person next: a route (with /login's `from`), or a checked return path. */
export type NavigationRequest = ({ to: AppPath; search?: { from?: ReturnPath } } | { href: ReturnPath }) & { replace?: boolean };
