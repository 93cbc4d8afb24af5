import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { UID } from '../content-types';
import { stepUpMessages, type StepUpMethod, type StepUpRequired } from '../contract/stepUp';
import type { TwoFactorService } from '../api/two-factor/services/two-factor';
import { recentPasskeysRemoved, type RecentPasskeysReason } from '../mail/owner-notice';
import { notifyOwner } from '../mail/notify-owner';

/**
 * Step-up (docs/security.md#step-up): a stolen session token alone must not change how the account
 * signs in, delete it, or take its data. The proof of presence is the session row's
 * `reauthenticated_at` (src/security/sessions/records.ts): set when the session starts (every session
 * starts with a log-in) and by POST /api/auth/step-up. It is read on the session of the request's own
 * token only, so a proof on one session never serves another, and it lasts STEP_UP_WINDOW_SEC.
 */

/** How long a proof of presence lasts; config/security.ts `stepUpWindowSec` (STEP_UP_WINDOW_SEC) overrides it. */
export const STEP_UP_WINDOW_SEC = 10 * 60;

/**
 * Passkeys added this recently are removed by "Log out of all devices" and by a password change or
 * reset: whoever held a stolen session may have added one as a way back in (docs/security.md#step-up).
 */
export const RECENT_PASSKEY_MINUTES = 60;

export function stepUpWindowMs(strapi: Core.Strapi): number {
  const configured = strapi.config.get('security.stepUpWindowSec') as number | undefined;
  return Math.max(1, configured ?? STEP_UP_WINDOW_SEC) * 1000;
}

const sessions = (strapi: Core.Strapi) => strapi.db.query(UID.memberSession);

/** Whether the request's session (its token's sid, the member's own and live) proved presence within the window. */
export async function hasRecentStepUp(strapi: Core.Strapi, memberId: number, sid: string | null): Promise<boolean> {
  if (sid === null) return false;
  const since = new Date(Date.now() - stepUpWindowMs(strapi));
  const count = await sessions(strapi).count({
    where: { sid, member_id: memberId, revoked_at: { $null: true }, reauthenticated_at: { $gte: since } },
  });
  return count > 0;
}

/** Records a proof on the request's session; the proof's end, or null when the session is gone. */
export async function recordStepUp(strapi: Core.Strapi, memberId: number, sid: string): Promise<Date | null> {
  const now = Date.now();
  const { count } = await sessions(strapi).updateMany({
    where: { sid, member_id: memberId, revoked_at: { $null: true } },
    data: { reauthenticated_at: new Date(now) },
  });
  return count === 1 ? new Date(now + stepUpWindowMs(strapi)) : null;
}

/** The ways this member can prove presence: no password with two-factor on (the code is the proof then). */
export async function stepUpMethods(strapi: Core.Strapi, memberId: number): Promise<StepUpMethod[]> {
  const user = (await strapi.db.query(UID.user).findOne({ where: { id: memberId }, select: ['id', 'password'] })) as {
    password?: string | null;
  } | null;
  const twoFactor = await (strapi.service('api::two-factor.two-factor') as unknown as TwoFactorService).isEnabled(memberId);
  const passkeys = await strapi.db.query(UID.passkey).count({ where: { user: { id: memberId } } });
  const methods: StepUpMethod[] = [];
  if (twoFactor) methods.push('code');
  else if (user?.password) methods.push('password');
  if (passkeys > 0) methods.push('passkey');
  return methods;
}

/** The 403 of a guarded action without a recent proof: the spec's words and what the SPA needs to ask. */
export async function stepUpRefusal(strapi: Core.Strapi, memberId: number): Promise<errors.PolicyError> {
  const details: StepUpRequired = { stepUp: true, methods: await stepUpMethods(strapi, memberId) };
  return new errors.PolicyError(stepUpMessages.required, details);
}

/** Throws the step-up refusal unless the request's session proved presence within the window. */
export async function requireRecentStepUp(strapi: Core.Strapi, memberId: number, sid: string | null): Promise<void> {
  if (!(await hasRecentStepUp(strapi, memberId, sid))) throw await stepUpRefusal(strapi, memberId);
}

/**
 * Removes the member's passkeys added within RECENT_PASSKEY_MINUTES, and tells the owner which and why
 * (one passkey-removed notice, after the caller's transaction commits); how many went.
 */
export async function removeRecentPasskeys(strapi: Core.Strapi, memberId: number | string, reason: RecentPasskeysReason): Promise<number> {
  const since = new Date(Date.now() - RECENT_PASSKEY_MINUTES * 60_000);
  const passkeys = strapi.db.query(UID.passkey);
  const recent = (await passkeys.findMany({
    where: { user: { id: Number(memberId) }, createdAt: { $gte: since } },
    select: ['id', 'name'],
    orderBy: { id: 'asc' },
  })) as { id: number; name: string }[];
  if (recent.length === 0) return 0;
  await passkeys.deleteMany({ where: { id: { $in: recent.map((row) => row.id) } } });
  strapi.log.info(`[step-up] user ${memberId}: ${recent.length} passkey(s) added in the last ${RECENT_PASSKEY_MINUTES} minutes removed`);
  const names = recent.map((row) => row.name);
  await notifyOwner(strapi, Number(memberId), 'passkey-removed', recentPasskeysRemoved(names, reason, RECENT_PASSKEY_MINUTES));
  return recent.length;
}
