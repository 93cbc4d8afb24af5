import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { UID } from '../../content-types';
import type { RequestContext } from '../../request-context';
import { readAuthSettings } from '../../bootstrap/auth-settings';
import { answerRefusedSession, issueSession, type RefusalAnswer, type SessionProof } from './tokens';

/** users-permissions' own words for an account that may not sign in (its password log-in says them too). */
export const signInRefusals = {
  notConfirmed: 'Your account email is not confirmed',
  blocked: 'Your account has been blocked by an administrator',
} as const;

interface SignInOptions {
  /** What the session was won with (./tokens.ts SessionProof). */
  proof: SessionProof;
  /** The error for an account gone since its proof was checked. */
  gone: () => Error;
  /** The answer when that proof no longer stands at the session's row (answerRefusedSession). */
  credentialsChanged?: RefusalAnswer;
}

/**
 * The end of a sign-in road of our own (a passkey, the two-factor step) once its proof is checked: the same
 * refusals as a password log-in, a session whose row is written (a refusal there is answered in words the
 * member can act on), and the answer `{ jwt, user }` as users-permissions gives it.
 */
export async function answerSignIn(strapi: Core.Strapi, ctx: RequestContext, userId: number, options: SignInOptions): Promise<void> {
  const user = (await strapi.db.query(UID.user).findOne({ where: { id: userId }, populate: ['role'] })) as {
    id: number;
    blocked?: boolean | null;
    confirmed?: boolean | null;
  } | null;
  if (!user) throw options.gone();
  const advanced = await readAuthSettings(strapi);
  if (advanced.email_confirmation && user.confirmed !== true) throw new errors.ApplicationError(signInRefusals.notConfirmed);
  if (user.blocked === true) throw new errors.ApplicationError(signInRefusals.blocked);
  let jwt: string;
  try {
    jwt = await issueSession(strapi, user.id, ctx, options.proof);
  } catch (error) {
    if (answerRefusedSession(ctx, error, options.credentialsChanged)) return;
    throw error;
  }
  const sanitized = await strapi.contentAPI.sanitize.output(user, strapi.getModel(UID.user), { auth: ctx.state.auth });
  ctx.body = { jwt, user: sanitized };
}
