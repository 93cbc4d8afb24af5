import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { MemberContext } from '../../../request-context';
import { sendError } from '../../../payments/http';
import { sessionMessages, type SessionsResponse } from '../../../contract/sessions';
import { stepUpMessages, type StepUpResponse } from '../../../contract/stepUp';
import { currentSessionId } from '../../../security/sessions/tokens';
import { listSessions, revokeSession } from '../../../security/sessions/records';
import { recordStepUp, stepUpMethods } from '../../../security/step-up';
import { guardedGuess } from '../../../security/guess-budget';
import { twoFactorMessages } from '../../../contract/twoFactor';
import { UID } from '../../../content-types';
import type { PasskeyService } from '../../passkey/services/passkey';

const { ValidationError, ApplicationError } = errors;

const bodyOf = (ctx: MemberContext): Record<string, unknown> => {
  const body: unknown = ctx.request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
};

export default ({ strapi }: { strapi: Core.Strapi }) => {
  /** The member's password, under the account's password budget (the log-in's, src/security/guess-budget.ts). */
  async function checkPassword(ctx: MemberContext, memberId: number, password: unknown): Promise<void> {
    if (typeof password !== 'string' || password === '') throw new ValidationError(stepUpMessages.passwordMissing);
    const user = (await strapi.db.query(UID.user).findOne({ where: { id: memberId }, select: ['id', 'password'] })) as {
      password?: string | null;
    } | null;
    const hash = user?.password;
    if (!hash) throw new ApplicationError(stepUpMessages.logInAgain);
    // Counted before it is checked, under the account's one password budget (fails closed without Redis).
    if (!(await guardedGuess(strapi, ctx, memberId, { password }))) throw new ValidationError(stepUpMessages.wrongPassword);
  }

  /** A passkey assertion (to POST /api/auth/passkey/options' challenge) by one of this member's passkeys. */
  async function checkPasskey(memberId: number, credential: unknown): Promise<void> {
    const passkeys = strapi.service('api::passkey.passkey') as unknown as PasskeyService;
    const { userId: owner } = await passkeys.authenticate(credential).catch((error: unknown) => {
      if (error instanceof ValidationError) throw new ValidationError(stepUpMessages.passkeyFailed);
      throw error;
    });
    if (owner !== memberId) throw new ValidationError(stepUpMessages.passkeyFailed);
  }

  return {
    /** GET /api/sessions: the member's own signed-in sessions; `current` marks the one asking. */
    async find(ctx: MemberContext) {
      const memberId = ctx.state.user.id;
      const body: SessionsResponse = { sessions: await listSessions(strapi, memberId, currentSessionId(ctx)) };
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

    /**
     * POST /api/auth/step-up { password } | { code } | { credential }: proves presence again on this
     * session (docs/security.md#step-up). With two-factor on the password alone is no proof.
     */
    async stepUp(ctx: MemberContext) {
      const memberId = ctx.state.user.id;
      const sid = currentSessionId(ctx);
      // A token from before the session table has no row to hold the proof: a new log-in gives one.
      if (sid === null) return sendError(ctx, 401, 'UnauthorizedError', stepUpMessages.noSession);
      const body = bodyOf(ctx);
      const methods = await stepUpMethods(strapi, memberId);
      if (body.credential !== undefined && methods.includes('passkey')) await checkPasskey(memberId, body.credential);
      else if (methods.includes('code')) {
        if (body.code === undefined) throw new ValidationError(stepUpMessages.codeNeeded);
        // Counted before it is checked, under the account's two-factor code budget (an app or a recovery code).
        if (!(await guardedGuess(strapi, ctx, memberId, { code: body.code }))) throw new ValidationError(twoFactorMessages.wrongCode);
      } else if (methods.includes('password')) await checkPassword(ctx, memberId, body.password);
      else throw new ApplicationError(stepUpMessages.logInAgain);
      const validUntil = await recordStepUp(strapi, memberId, sid);
      if (validUntil === null) return sendError(ctx, 401, 'UnauthorizedError', stepUpMessages.noSession);
      const answer: StepUpResponse = { ok: true, validUntil: validUntil.toISOString() };
      ctx.set('Cache-Control', 'no-store');
      ctx.body = answer;
    },
  };
};
