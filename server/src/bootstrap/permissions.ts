import type { Core } from '@strapi/strapi';
import { UID } from '../content-types';
import type { Role, RoleActions } from '../route-table';
import { USERS_PERMISSIONS_ACCESS } from '../extensions/users-permissions/route-access';
import { UPLOAD_ACCESS } from '../extensions/upload/route-access';

/** Plugin routes have no rows: their access is declared once next to where each plugin's routes are configured. */
const PLUGIN_ACCESS: readonly RoleActions[] = [USERS_PERMISSIONS_ACCESS.access, UPLOAD_ACCESS.access];

const hasAccess = (router: unknown): router is { access: RoleActions } =>
  typeof router === 'object' && router !== null && 'access' in router;

/** The API routers Strapi loaded (src/api/<name>/routes/*), as their modules export them. */
export function apiRouters(strapi: Core.Strapi): unknown[] {
  return Object.values(strapi.apis).flatMap((api) => Object.values((api.routes ?? {}) as Record<string, unknown>));
}

/**
 * Content-API permissions of the users-permissions roles, least privilege, derived from the routes:
 * each API router's rows (src/route-table.ts: contentApiRoutes, everyoneReads) and the plugin routes'
 * declarations. A router made any other way stops the start: its access would be written nowhere.
 */
export function rolePermissions(routers: readonly unknown[]): Record<Role, string[]> {
  const declared = routers.map((router) => {
    if (!hasAccess(router)) throw new Error('permissions: an API router not made with src/route-table.ts states no access');
    return router.access;
  });
  const union = (role: Role) => [...new Set([...declared, ...PLUGIN_ACCESS].flatMap((access) => access[role]))].sort();
  return { public: union('public'), authenticated: union('authenticated') };
}

interface PermissionRow {
  id: number;
  action: string;
}

/**
 * Synced on every boot: missing actions are granted, any other action is revoked, so changes made
 * in the admin panel do not survive a restart. An action no controller has stops the start.
 */
export async function syncRolePermissions(strapi: Core.Strapi): Promise<void> {
  const roles = strapi.db.query(UID.role);
  const permissions = strapi.db.query(UID.permission);
  const rolesWanted = rolePermissions(apiRouters(strapi));
  const actions = strapi.contentAPI.permissions.providers.action;
  const unknown = [...rolesWanted.public, ...rolesWanted.authenticated].filter((action) => !actions.has(action));
  if (unknown.length > 0) throw new Error(`permissions: no content-API action ${unknown.join(', ')}`);

  for (const [type, wanted] of Object.entries(rolesWanted)) {
    const role: { id: number } | null = await roles.findOne({ where: { type } });
    if (!role) {
      throw new Error(`users-permissions role "${type}" is missing`);
    }

    const current: PermissionRow[] = await permissions.findMany({
      where: { role: role.id },
      select: ['id', 'action'],
    });
    const have = new Set(current.map((p) => p.action));

    const extra = current.filter((p) => !wanted.includes(p.action));
    if (extra.length > 0) {
      await permissions.deleteMany({ where: { id: { $in: extra.map((p) => p.id) } } });
    }
    for (const action of wanted.filter((a) => !have.has(a))) {
      await permissions.create({ data: { action, role: role.id } });
    }
    if (extra.length > 0 || wanted.some((a) => !have.has(a))) {
      strapi.log.info(`[permissions] synced role "${type}" (${wanted.length} actions, revoked ${extra.length})`);
    }
  }
}
