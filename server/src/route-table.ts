import { memberOnlyAuth } from './api/account/auth/bearer-required';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route: 'public' (auth: false), 'member' (401 without a bearer token, then the
 * authenticated role's permission), or a member-only auth with its own 401 message.
 */
type Access = 'public' | 'member' | ReturnType<typeof memberOnlyAuth>;

/** [method, path under /api, the controller's action, access when not the table's]. */
export type RouteRow = readonly [method: Method, path: string, action: string, access?: Access];

/** A content-API router of one controller, one row a route, each row under `access` unless it says otherwise. */
export function contentApiRoutes(controller: string, access: Access, rows: readonly RouteRow[]) {
  return {
    type: 'content-api' as const,
    routes: rows.map(([method, path, action, own = access]) => ({
      method,
      path,
      handler: `${controller}.${action}`,
      // A fresh auth object per route: Strapi adds the route's permission scope to it.
      config: { auth: own === 'public' ? false : own === 'member' ? memberOnlyAuth() : own, policies: [], middlewares: [] as string[] },
    })),
  };
}
