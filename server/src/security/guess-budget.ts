import type { Core } from '@strapi/strapi';
import { UID } from '../content-types';
import { refuse } from './auth-rate-limit';
import { accountSubject, countedGuess, lockedMessage, refuseUncountable, type GuessPolicy } from './login-throttle';

/**
 * A member's secrets checked under their shared budget, for any route that asks for one:
 *
 *   guardedGuess(strapi, ctx, userId, { password }): Promise<boolean>
 *   guardedGuess(strapi, ctx, userId, { code }): Promise<boolean>
 *
 * Resolves true when the password (or the two-factor code, or a recovery code, which is then spent)
 * is the member's, false when it is not (the caller answers in its own words). The attempt is counted
 * BEFORE it is checked, against one budget per account shared by every route and instance: the
 * password's is the log-in's (10 failures in 15 minutes lock it, src/security/login-throttle.ts), the
 * code's is the second step's (api/two-factor). Throws a 429 RateLimitError with Retry-After while
 * the budget is spent ("Too many failed log-in attempts. …" / "Too many wrong codes. …"), and a 429
 * (UNCOUNTABLE_MESSAGE, Retry-After 60) while Redis cannot be reached: unlike the log-in, these checks
 * fail closed. A member without a password (social sign-in) or without two-factor: false, uncounted.
 */

type Ctx = Parameters<typeof refuse>[0];
export type MemberSecret = { password: unknown } | { code: unknown };

const passwordPolicy = (strapi: Core.Strapi, ctx: Ctx, userId: number): GuessPolicy => ({
  refuseLocked: (seconds) => refuse(ctx, 'login-lock-member', seconds, lockedMessage(seconds)),
  whenUncountable: 'closed',
  refuseUncountable: () => refuseUncountable(ctx),
  onLock: (seconds) => strapi.log.warn(`[auth] user ${userId}: password checks locked for ${seconds} s after repeated failures`),
});

/** The member's current password, counted first under the log-in's budget. */
export async function passwordGuess(strapi: Core.Strapi, ctx: Ctx, userId: number, password: unknown): Promise<boolean> {
  const user = (await strapi.db.query(UID.user).findOne({ where: { id: userId }, select: ['id', 'password'] })) as {
    password: string | null;
  } | null;
  if (!user?.password) return false;
  const hash = user.password;
  return countedGuess(
    accountSubject('member', userId),
    passwordPolicy(strapi, ctx, userId),
    // An empty or non-text password is a wrong guess too: counted, never compared.
    async () =>
      typeof password === 'string' &&
      password !== '' &&
      (await strapi.plugin('users-permissions').service('user').validatePassword(password, hash)),
    (outcome) => (outcome.ok ? (outcome.value ? 'right' : 'wrong') : 'unchecked'),
  );
}

interface CodeChecker {
  checkCode(ctx: Ctx, userId: number, given: unknown): Promise<boolean>;
}

export async function guardedGuess(strapi: Core.Strapi, ctx: Ctx, userId: number, secret: MemberSecret): Promise<boolean> {
  if ('password' in secret) return passwordGuess(strapi, ctx, userId, secret.password);
  return (strapi.service('api::two-factor.two-factor') as unknown as CodeChecker).checkCode(ctx, userId, secret.code);
}
