import type { Core } from '@strapi/strapi';
import { logOutEverywhere } from '../../../security/sessions/revocation';
import type { MemberContext, RequestContext } from '../../../request-context';
import { handleGatewayError, sendError } from '../../../payments/http';
import { billingMessages } from '../../../contract/billing';
import { recordRateLimitRefusal } from '../../../operations/metrics';
import { emailChangeCancelBody, emailChangeConfirmBody } from '../../../contract/emailChange';
import { validBody } from '../../../validated-body';

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /** DELETE /api/users-permissions/users/delete-account: deletes the authenticated user. */
  async deleteAccount(ctx: MemberContext) {
    // The route's auth guarantees an authenticated user (see routes/account.ts).
    const { id } = ctx.state.user;
    await strapi.service('api::account.account-deletion').deleteAccount(id);
    ctx.body = { ok: true };
  },

  /** GET /api/account/export: the member's data as a JSON attachment, at most 5 an hour. */
  async export(ctx: MemberContext) {
    const exports = strapi.service('api::account.account-export');
    const verdict = await exports.consume(ctx.state.user.id);
    if (!verdict.allowed) {
      recordRateLimitRefusal('account-exports');
      ctx.set('Retry-After', String(verdict.retryAfterSec));
      sendError(ctx, 429, 'RateLimitError', billingMessages.exportLimit);
      return;
    }
    let data;
    try {
      data = await exports.build(ctx.state.user.id);
    } catch (error) {
      // The invoices come from the payment gateway: unreachable, 502 rather than an incomplete export.
      handleGatewayError(strapi, ctx, error);
      return;
    }
    if (!data) {
      sendError(ctx, 404, 'NotFoundError', 'Account not found');
      return;
    }
    ctx.set('Content-Disposition', `attachment; filename="carnivo-export-${data.exportedAt.slice(0, 10)}.json"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = JSON.stringify(data, null, 2);
  },

  /** POST /api/auth/email-change/confirm (public, the link mailed to the new address): makes the change. */
  async confirmEmailChange(ctx: RequestContext) {
    // A malformed token is refused in the link's words, like one that matches nothing.
    const { token } = validBody(emailChangeConfirmBody, ctx.request.body);
    ctx.body = await strapi.service('api::account.email-change').confirm(token);
  },

  /** POST /api/auth/email-change/cancel (public, the link mailed to the old address): voids the pending change. */
  async cancelEmailChange(ctx: RequestContext) {
    const { token } = validBody(emailChangeCancelBody, ctx.request.body);
    await strapi.service('api::account.email-change').cancel(token);
    ctx.body = { ok: true };
  },

  /** POST /api/auth/logout-all: revokes every token of the member, this one included. */
  async logoutAll(ctx: MemberContext) {
    await logOutEverywhere(strapi, ctx.state.user.id);
    ctx.body = { ok: true };
  },
});
