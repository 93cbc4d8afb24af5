import type { Core } from '@strapi/strapi';
import { UID } from '../content-types';

/**
 * The admin panel's Editor and Author roles exist for the site's content: the legal pages, the
 * subscription plans and the ingredients (docs/security.md#the-admin-panel). Strapi gives them every
 * content type at their creation (members, subscriptions, weight entries...); on every start, their
 * Content Manager permissions on any other type are removed, so one granted by hand does not survive
 * a restart. Other permissions (the media library) are Strapi's defaults, left as they are.
 */
export const CONTENT_ROLES = ['strapi-editor', 'strapi-author'] as const;

export const CONTENT_ROLE_SUBJECTS: readonly string[] = [
  UID.privacyPolicy,
  UID.refundPolicy,
  UID.termsAndCondition,
  UID.subscriptionPlan,
  UID.ingredient,
];

const CONTENT_MANAGER_ACTION = 'plugin::content-manager.explorer.';

export async function narrowContentRoles(strapi: Core.Strapi): Promise<void> {
  const roles = (await strapi.db.query('admin::role').findMany({
    where: { code: { $in: [...CONTENT_ROLES] } },
    select: ['id', 'code'],
  })) as { id: number; code: string }[];
  for (const role of roles) {
    const permissions = (await strapi.db.query('admin::permission').findMany({
      where: { role: role.id, action: { $startsWith: CONTENT_MANAGER_ACTION } },
      select: ['id', 'subject'],
    })) as { id: number; subject: string | null }[];
    const extra = permissions.filter((permission) => !CONTENT_ROLE_SUBJECTS.includes(permission.subject ?? ''));
    if (extra.length === 0) continue;
    await strapi.db.query('admin::permission').deleteMany({ where: { id: { $in: extra.map((permission) => permission.id) } } });
    strapi.log.info(`[admin roles] ${role.code}: removed ${extra.length} Content Manager permission(s) outside the site's content`);
  }
}
