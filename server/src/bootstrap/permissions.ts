import type { Core } from '@strapi/strapi';
import { UID } from '../content-types';

// The legal pages are readable by everyone (a logged-in visitor's token must not lock them out).
const LEGAL_READ_ACTIONS = [
  'api::privacy-policy.privacy-policy.find',
  'api::terms-and-condition.terms-and-condition.find',
  'api::refund-policy.refund-policy.find',
] as const;

/**
 * Content-API permissions of the users-permissions roles, least privilege.
 * Synced on every boot: missing actions are granted, any other action is revoked,
 * so changes made in the admin panel do not survive a restart. Later features
 * (profile update, upload, subscriptions, legal pages, account deletion) add their actions here.
 */
export const ROLE_PERMISSIONS: Record<'public' | 'authenticated', readonly string[]> = {
  public: [
    'plugin::users-permissions.auth.register',
    'plugin::users-permissions.auth.callback',
    'plugin::users-permissions.auth.connect',
    'plugin::users-permissions.auth.forgotPassword',
    'plugin::users-permissions.auth.resetPassword',
    'plugin::users-permissions.auth.emailConfirmation',
    'plugin::users-permissions.auth.sendEmailConfirmation',
    'api::ingredient.ingredient.find',
    'api::ingredient.ingredient.findOne',
    ...LEGAL_READ_ACTIONS,
    'api::subscription-plan.subscription-plan.find',
  ],
  authenticated: [
    'plugin::users-permissions.user.me',
    'plugin::users-permissions.auth.changePassword',
    // Self only, profile fields only (extensions/users-permissions/profile-guard.ts).
    'plugin::users-permissions.user.update',
    // Own profile picture only (extensions/upload/profile-picture-guard.ts); no file listing.
    'plugin::upload.content-api.upload',
    'api::account.account.deleteAccount',
    'api::account.account.logoutAll',
    // Own sessions only (api/member-session).
    'api::member-session.member-session.find',
    'api::member-session.member-session.revoke',
    // Step-up on the member's own session (docs/security.md#step-up).
    'api::member-session.member-session.stepUp',
    'api::ingredient.ingredient.find',
    'api::ingredient.ingredient.findOne',
    ...LEGAL_READ_ACTIONS,
    'api::subscription-plan.subscription-plan.find',
    'api::subscription.subscription.current',
    'api::subscription.subscription.create',
    'api::subscription.subscription.verify',
    'api::subscription.subscription.cancel',
    'api::subscription.subscription.resume',
    'api::subscription.subscription.invoices',
    'api::subscription.subscription.portal',
    'api::subscription.subscription.card',
    'api::payment.payment.sandboxCard',
    'api::account.account.export',
    // The member's own two-factor authentication (api/two-factor).
    'api::two-factor.two-factor.status',
    'api::two-factor.two-factor.setup',
    'api::two-factor.two-factor.enable',
    'api::two-factor.two-factor.regenerate',
    'api::two-factor.two-factor.disable',
    // Own entries only (api/weight-entry).
    'api::weight-entry.weight-entry.find',
    'api::weight-entry.weight-entry.create',
    'api::weight-entry.weight-entry.delete',
    // Own passkeys only (api/passkey).
    'api::passkey.passkey.registrationOptions',
    'api::passkey.passkey.find',
    'api::passkey.passkey.create',
    'api::passkey.passkey.delete',
  ],
};

interface PermissionRow {
  id: number;
  action: string;
}

export async function syncRolePermissions(strapi: Core.Strapi): Promise<void> {
  const roles = strapi.db.query(UID.role);
  const permissions = strapi.db.query(UID.permission);

  for (const [type, wanted] of Object.entries(ROLE_PERMISSIONS)) {
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
