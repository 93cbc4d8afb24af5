import { errors } from '@strapi/utils';

/**
 * Auth strategy placed before 'users-permissions' on member-only routes.
 *
 * Without it a request with no token is treated as the public role and answered 403; with it
 * a request without a bearer token is refused with 401. When a token is present this strategy
 * steps aside and users-permissions authenticates and authorises the request as usual
 * (invalid, expired or orphaned tokens: 401; missing role permission: 403).
 */
function bearerRequired(message: string) {
  return {
    name: 'bearer-required',
    authenticate(ctx: { request: { header: Record<string, string | string[] | undefined> } }) {
      const header = ctx.request.header.authorization;
      const value = Array.isArray(header) ? header[0] : header;
      if (!value || !/^bearer\s+\S+$/i.test(value.trim())) {
        return { error: message };
      }
      return { authenticated: false };
    },
    verify() {
      // Never authenticates a request itself, so never asked to verify one.
      throw new errors.UnauthorizedError();
    },
  };
}

/** SPEC §6: a profile call without a token. */
export const NOT_AUTHENTICATED = 'Not authenticated';
/** SPEC §6: an account deletion without a token. */
export const DELETION_NEEDS_LOGIN = 'You must be logged in to delete your account';

/**
 * route.config.auth for routes that only a logged-in member may call; `message` answers a request
 * with no bearer token. A fresh object per route: Strapi adds the route's own permission scope to it.
 */
export const memberOnlyAuth = (message: string = NOT_AUTHENTICATED) => ({
  strategies: [bearerRequired(message), 'users-permissions'],
});
