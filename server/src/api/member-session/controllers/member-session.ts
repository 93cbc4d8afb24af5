import type { Core } from '@strapi/strapi';
import type { MemberContext } from '../../../request-context';
import { sendError } from '../../../payments/http';
import { sessionMessages, type SessionsResponse } from '../../../contract/sessions';
import { currentSessionId, sessionsValidAfter } from '../../../security/sessions';
import { listSessions, revokeSession } from '../../../security/member-sessions';

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /** GET /api/sessions: the member's own signed-in sessions; `current` marks the one asking. */
  async find(ctx: MemberContext) {
    const memberId = ctx.state.user.id;
    const validAfter = (await sessionsValidAfter(strapi, memberId)) ?? 0;
    const body: SessionsResponse = {
      sessions: await listSessions(strapi, memberId, validAfter, currentSessionId(ctx.get('Authorization'))),
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  },

  /** DELETE /api/sessions/:id: signs out one of the member's sessions; any other id is not found. */
  async revoke(ctx: MemberContext) {
    const revoked = await revokeSession(strapi, ctx.state.user.id, String(ctx.params.id ?? ''));
    if (!revoked) {
      sendError(ctx, 404, 'NotFoundError', sessionMessages.notFound);
      return;
    }
    ctx.body = { ok: true };
  },
});
