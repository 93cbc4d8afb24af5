import type { Core } from '@strapi/strapi';
import { applyProfileGuards } from './profile-guard';
import { withSocialSignIn } from './social/controller';

type ControllerFactory = (deps: { strapi: Core.Strapi }) => Record<string, (ctx: any, next?: any) => unknown>;

interface UsersPermissionsPlugin {
  controllers: Record<string, ControllerFactory>;
  [key: string]: unknown;
}

/**
 * users-permissions, customised:
 * - forgot-password / reset-password use short, single-use, hashed, 1-hour codes
 *   (see api::account.password-reset). Only the controllers change: the plugin's routes,
 *   with their rate-limit middleware, stay as they are.
 */
export default (plugin: UsersPermissionsPlugin) => {
  // Google / Apple ID-token sign-in and Facebook's code flow (see ./social/controller.ts).
  const createAuthController = withSocialSignIn(plugin.controllers.auth);

  plugin.controllers.auth = ({ strapi }) => ({
    ...createAuthController({ strapi }),

    async forgotPassword(ctx) {
      await strapi.service('api::account.password-reset').forgotPassword(ctx.request.body);
      ctx.send({ ok: true });
    },

    async resetPassword(ctx) {
      await strapi.service('api::account.password-reset').resetPassword(ctx.request.body);
      ctx.send({ ok: true });
    },
  });

  // Profile update (self only, SPEC §7 fields and §5 rules) and change-password guards.
  applyProfileGuards(plugin as unknown as { routes: Record<string, unknown> });

  return plugin;
};
