import type { UID as StrapiUID, factories as StrapiFactories } from '@strapi/strapi';
import { memberOnlyAuth } from './api/account/auth/bearer-required';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route: 'public' (auth: false), 'member' (401 without a bearer token, then the
 * authenticated role's permission), or a member-only auth with its own 401 message.
 */
type Access = 'public' | 'member' | ReturnType<typeof memberOnlyAuth>;

/** A route policy (src/policies): only answers "may this request go on?". */
export type Policy = 'global::recent-step-up' | 'global::only-yourself' | 'global::own-picture';

/** Names the step-up policy (docs/security.md#step-up): the session proved presence within the window. */
export const STEP_UP: readonly Policy[] = ['global::recent-step-up'];
/** A member changes only their own user (PUT /api/users/:id; src/policies/only-yourself.ts). */
export const ONLY_YOURSELF: Policy = 'global::only-yourself';
/** A member uploads onto their own profile picture only (POST /api/upload; src/policies/own-picture.ts). */
export const OWN_PICTURE: Policy = 'global::own-picture';

/** The users-permissions roles whose content-API permissions are synced at boot (src/bootstrap/permissions.ts). */
export type Role = 'public' | 'authenticated';

/** The actions ("api::x.x.action", "plugin::p.controller.action") each role must hold for a router's routes. */
export type RoleActions = Readonly<Record<Role, readonly string[]>>;

/** [method, path under /api, the controller's action, access when not the table's, the route's policies]. */
export type RouteRow = readonly [method: Method, path: string, action: string, access?: Access, policies?: readonly Policy[]];

/**
 * A content-API router of one controller, one row a route, each row under `access` unless it says
 * otherwise. Its `access` is what the roles must hold, read from the rows: a member route is the
 * authenticated role's; a public route (auth: false) needs no permission. The controller is the one
 * of the API of the same name (api::<controller>.<controller>), as every API here has.
 */
export function contentApiRoutes(controller: string, access: Access, rows: readonly RouteRow[]) {
  const routes = rows.map(([method, path, action, own = access, policies = []]) => ({
    method,
    path,
    handler: `${controller}.${action}`,
    // A fresh auth object per route: Strapi adds the route's permission scope to it.
    config: {
      auth: own === 'public' ? false : own === 'member' ? memberOnlyAuth() : own,
      policies: [...policies] as string[],
      middlewares: [] as string[],
    },
  }));
  const memberActions = routes.filter((route) => route.config.auth !== false).map((route) => `api::${controller}.${route.handler}`);
  const roles: RoleActions = { public: [], authenticated: [...new Set(memberActions)] };
  return { type: 'content-api' as const, routes, access: roles };
}

/**
 * Strapi's core read routes of a content type, readable by everyone: both roles hold them (a
 * logged-in visitor's token must not lock them out), so an invalid token is still refused.
 * `factories` is Strapi's (the caller's import: this table loads without Strapi).
 */
export function everyoneReads(factories: typeof StrapiFactories, uid: StrapiUID.ContentType, only: readonly ('find' | 'findOne')[]) {
  const actions = only.map((action) => `${uid}.${action}`);
  const roles: RoleActions = { public: actions, authenticated: actions };
  // Object.assign, not a spread: the core router builds its routes lazily, once Strapi runs.
  return Object.assign(factories.createCoreRouter(uid, { only: [...only] }), { access: roles });
}

/**
 * The access of a plugin's own content-API routes, which have no rows: `visitor` routes are the
 * public role's (log-in, sign-up), `member` routes the authenticated role's. Handlers as the
 * plugin names them ("auth.register"); declared once next to where the plugin's routes are configured.
 */
export function pluginRouteAccess(plugin: string, handlers: { visitor?: readonly string[]; member?: readonly string[] }) {
  const actions = (names: readonly string[] = []) => names.map((handler) => `plugin::${plugin}.${handler}`);
  const roles: RoleActions = { public: actions(handlers.visitor), authenticated: actions(handlers.member) };
  return { plugin, visitor: handlers.visitor ?? [], member: handlers.member ?? [], access: roles };
}
