import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { MemberContext, RequestContext } from '../../../request-context';
import { TicketVoid, type CompletedLogIn, type TwoFactorService } from '../services/two-factor';
import { sendError } from '../../../payments/http';
import { createAuthRateLimit } from '../../../security/auth-rate-limit';
import { currentSessionId } from '../../../security/sessions/tokens';
import { answerSignIn } from '../../../security/sessions/sign-in';
import { recordStepUp } from '../../../security/step-up';

const service = (strapi: Core.Strapi) => strapi.service('api::two-factor.two-factor') as unknown as TwoFactorService;

/** Secrets and recovery codes: no cache, no proxy keeps a copy. */
const secretAnswer = (ctx: RequestContext, body: unknown) => {
  ctx.set('Cache-Control', 'no-store');
  ctx.body = body;
};

/** A right code (and password) in the request proved presence on this session: the next guarded action is not asked again. */
const provedPresence = async (strapi: Core.Strapi, ctx: MemberContext) => {
  const sid = currentSessionId(ctx);
  if (sid !== null) await recordStepUp(strapi, ctx.state.user.id, sid);
};

export default ({ strapi }: { strapi: Core.Strapi }) => {
  // The second log-in step is limited per route and client address like users-permissions' auth routes.
  const perAddress = createAuthRateLimit(strapi);
  return {
    /** GET /api/two-factor */
    async status(ctx: MemberContext) {
      ctx.body = await service(strapi).status(ctx.state.user.id);
    },

    /** POST /api/two-factor/setup */
    async setup(ctx: MemberContext) {
      secretAnswer(ctx, await service(strapi).setup(ctx.state.user.id));
    },

    /** POST /api/two-factor/enable { code } */
    async enable(ctx: MemberContext) {
      const recoveryCodes = await service(strapi).enable(ctx, ctx.state.user.id, ctx.request.body);
      secretAnswer(ctx, { recoveryCodes });
    },

    /** POST /api/two-factor/recovery-codes { code } */
    async regenerate(ctx: MemberContext) {
      const recoveryCodes = await service(strapi).regenerate(ctx, ctx.state.user.id, ctx.request.body);
      await provedPresence(strapi, ctx);
      secretAnswer(ctx, { recoveryCodes });
    },

    /** POST /api/two-factor/disable { password, code } */
    async disable(ctx: MemberContext) {
      await service(strapi).disable(ctx, ctx.state.user.id, ctx.request.body);
      await provedPresence(strapi, ctx);
      ctx.body = { ok: true };
    },

    /** POST /api/auth/two-factor { ticket, code }: the session of a password log-in, once the code is right. */
    async logIn(ctx: RequestContext) {
      await perAddress(ctx, async () => undefined);
      let completed: CompletedLogIn;
      try {
        completed = await service(strapi).completeLogIn(ctx, ctx.request.body);
      } catch (error) {
        // Not Strapi's UnauthorizedError: its authorize middleware would replace the message with a bare "Unauthorized".
        if (error instanceof TicketVoid) return sendError(ctx, 401, 'UnauthorizedError', error.message);
        throw error;
      }
      // A password replaced meanwhile voids the ticket at the session's row too, as it would a moment later.
      await answerSignIn(strapi, ctx, completed.userId, {
        proof: completed.proof,
        gone: () => new errors.UnauthorizedError('Invalid credentials'),
        credentialsChanged: { status: 401, name: 'UnauthorizedError', message: new TicketVoid().message },
      });
    },
  };
};
