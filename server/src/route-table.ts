import { memberOnlyAuth } from './api/account/auth/bearer-required';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route: 'public' (auth: false), 'member' (401 without a bearer token, then the
 * authenticated role's permission), or a member-only auth with its own 401 message.
 */
type Access = 'public' | 'member' | ReturnType<typeof memberOnlyAuth>;

/** A route policy a row may name (src/policies): only answers "may this request go on?". */
export type Policy = 'global::recent-step-up';

/** Names the step-up policy (docs/security.md#step-up): the session proved presence within the window. */
export const STEP_UP: readonly Policy[] = ['global::recent-step-up'];

/** [method, path under /api, the controller's action, access when not the table's, the route's policies]. */
export type RouteRow = readonly [method: Method, path: string, action: string, access?: Access, policies?: readonly Policy[]];

/** A content-API router of one controller, one row a route, each row under `access` unless it says otherwise. */
export function contentApiRoutes(controller: string, access: Access, rows: readonly RouteRow[]) {
  return {
    type: 'content-api' as const,
    routes: rows.map(([method, path, action, own = access, policies = []]) => ({
      method,
      path,
      handler: `${controller}.${action}`,
      // A fresh auth object per route: Strapi adds the route's permission scope to it.
      config: {
        auth: own === 'public' ? false : own === 'member' ? memberOnlyAuth() : own,
        policies: [...policies] as string[],
        middlewares: [] as string[],
      },
    })),
  };
}
