// @ts-nocheck
import type { Core } from '@strapi/strapi';
import { revokeSessions } from '../../../security/sessions';
import type { MemberContext } from '../../../request-context';

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /** DELETE /api/users-permissions/users/delete-account: deletes the authenticated user. */
  async deleteAccount(ctx: MemberContext) {
    // The route's auth guarantees an authenticated user (see routes/account.ts).
    const { id } = ctx.state.user;
    await strapi.service('api::account.account-deletion').deleteAccount(id);
    ctx.body = { ok: true };
  },

  /** POST /api/auth/logout-all: revokes every token of the member, this one included. */
  async logoutAll(ctx: MemberContext) {
    await revokeSessions(strapi, ctx.state.user.id);
    ctx.body = { ok: true };
  },
});
