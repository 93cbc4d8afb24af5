import type { Core } from '@strapi/strapi';

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /** DELETE /api/users-permissions/users/delete-account: deletes the authenticated user. */
  async deleteAccount(ctx: { state: { user: { id: number } }; body: unknown }) {
    // The route's auth guarantees an authenticated user (see routes/account.ts).
    const { id } = ctx.state.user;
    await strapi.service('api::account.account-deletion').deleteAccount(id);
    ctx.body = { ok: true };
  },
});
