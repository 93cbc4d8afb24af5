import fs from 'node:fs';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { SERVER_DIR } from './strapi';

export interface OwnedRoute {
  owner: string;
  method: string;
  /** Full path, prefix included, as the router matches it (params like :id left in). */
  path: string;
  handler: string;
}
interface RouteDefinition {
  method: string;
  path: string;
  handler: unknown;
  config?: Record<string, unknown>;
}
interface Router {
  type?: string;
  prefix?: string;
  routes?: RouteDefinition[];
}

export const joinPath = (...parts: string[]) =>
  parts
    .join('')
    .replace(/\/{2,}/g, '/')
    .replace(/(.)\/$/, '$1');

/**
 * The content-API routes of this project, read from the running Strapi:
 * - every route of every API in src/api (strapi.apis: nothing else lives there), and
 * - the content-API routes of every plugin the project extends in src/extensions/<plugin>
 *   (users-permissions, upload, email): their controllers and routes carry this project's guards,
 *   limits and services (email's `send` queues), and the members' pages call the first two.
 * Left out: the admin panel's routes (type 'admin', under /admin or a plugin's admin prefix) and the
 * content-API routes of plugins the project does not extend (i18n, content-type-builder), which
 * are Strapi's own, unchanged. The body middlewares (src/middlewares/body-*.ts) are global, so they
 * guard those too.
 */
export function ownedRoutes(app: { strapi: Core.Strapi }): OwnedRoute[] {
  const strapi = app.strapi as unknown as {
    config: { get<T>(key: string, fallback: T): T };
    apis: Record<string, { routes: Record<string, Router> }>;
    plugin(name: string): { routes: Record<string, Router> | RouteDefinition[] } | undefined;
  };
  const prefix = strapi.config.get('api.rest.prefix', '/api');
  const routes: OwnedRoute[] = [];
  const add = (owner: string, router: Router, routerPrefix: string) => {
    for (const route of router.routes ?? []) {
      // A route with config.prefix is mounted without its router's prefix (Strapi's routing.js).
      const base = route.config && 'prefix' in route.config ? '' : routerPrefix;
      routes.push({ owner, method: route.method.toUpperCase(), path: joinPath(prefix, base, route.path), handler: String(route.handler) });
    }
  };

  for (const [name, api] of Object.entries(strapi.apis)) {
    for (const router of Object.values(api.routes)) add(`api::${name}`, router, router.prefix ?? '');
  }
  const extended = fs
    .readdirSync(path.join(SERVER_DIR, 'src', 'extensions'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  for (const name of extended) {
    const pluginRoutes = strapi.plugin(name)?.routes;
    if (!pluginRoutes || Array.isArray(pluginRoutes)) continue; // an array of routes is admin-only (Strapi's register-routes.js)
    for (const router of Object.values(pluginRoutes)) {
      if (router.type === 'content-api') add(`plugin::${name}`, router, router.prefix ?? `/${name}`);
    }
  }
  return routes;
}
