import type { Core } from '@strapi/strapi';

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
  const createAuthController = plugin.controllers.auth;

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

  return plugin;
};
