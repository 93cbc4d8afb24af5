import type { Core } from '@strapi/strapi';
import { UID } from '../../content-types';
import { revokeAllSessionRows } from './records';
import { withSessionRowsLock } from './row-lock';
import { removeRecentPasskeys } from '../step-up';
import type { RecentPasskeysReason } from '../../mail/owner-notice';

/**
 * Ending every session of a member (docs/security.md#revocable-sessions): every session row is marked revoked
 * (the legacy row too), so every token is refused, and a pending second log-in step (a two-factor
 * ticket) goes with them.
 */
async function revokeEverySession(strapi: Core.Strapi, memberId: number | string): Promise<void> {
  await revokeAllSessionRows(strapi, memberId);
  await strapi.db.query(UID.twoFactorTicket).deleteMany({ where: { user_id: Number(memberId) } });
}

/**
 * Every session ends and, for `removingPasskeys`, the passkeys added lately go (a stolen session's way back
 * in, src/security/step-up.ts), under the member's session lock: a passkey sign-in whose session row comes
 * after this finds its passkey gone (./records.ts), and one before it is revoked here. The passkeys go
 * first, so without the lock's transaction (SQLite) a check between the two steps still sees the removal.
 */
async function endSessions(strapi: Core.Strapi, memberId: number, removingPasskeys: RecentPasskeysReason | null): Promise<void> {
  await withSessionRowsLock(strapi, memberId, async () => {
    if (removingPasskeys) await removeRecentPasskeys(strapi, memberId, removingPasskeys);
    await revokeEverySession(strapi, memberId);
  });
}

/** "Log out of all devices": every token of the member stops working, and the passkeys added lately go. */
export async function logOutEverywhere(strapi: Core.Strapi, memberId: number): Promise<void> {
  await strapi.db.transaction(() => endSessions(strapi, memberId, 'logout-all'));
}

/**
 * Whenever a user's password hash or e-mail address changes, whatever changed it (change-password,
 * reset, e-mail change link, admin panel): every session ends, so the other devices are told they were
 * signed out, as after "Log out of all devices" (change-password then issues the caller a new session,
 * as before); a reset code already mailed stops working (it was sent to the old address, or for the old
 * password), and so does a pending e-mail change (asked for by whoever knew the old password). A new
 * password also removes the passkeys added lately (src/security/step-up.ts).
 */
export function revokeSessionsOnCredentialChange(strapi: Core.Strapi): void {
  strapi.db.lifecycles.subscribe({
    models: [UID.user],
    async beforeUpdate(event: CredentialEvent & { params: { where?: Record<string, unknown> } }) {
      const data = event.params.data;
      if (!data) return;
      const passwordChanges = typeof data.password === 'string' && data.password !== '';
      if (passwordChanges || (typeof data.email === 'string' && (await emailChanges(strapi, event.params.where, data.email)))) {
        event.state.credentialsChanged = true;
        data.resetPasswordToken = null;
        data.resetPasswordTokenExpiresAt = null;
        data.pending_email = null;
        data.pending_email_expires_at = null;
        data.email_change_token = null;
        data.email_change_cancel_token = null;
      }
    },
    async afterUpdate(event: CredentialEvent & { result?: { id?: number } | null }) {
      const memberId = event.result?.id;
      if (typeof memberId !== 'number') return;
      const password = event.params.data?.password;
      if (event.state.credentialsChanged)
        await endSessions(strapi, memberId, typeof password === 'string' && password !== '' ? 'password' : null);
    },
  });
}

/** A user update's lifecycle event; `state` is shared by this subscriber's before and after hooks. */
interface CredentialEvent {
  params: { data?: Record<string, unknown> };
  state: { credentialsChanged?: boolean };
}

/** Whether a row the update touches holds another address (the profile form sends the e-mail unchanged too). */
async function emailChanges(strapi: Core.Strapi, where: Record<string, unknown> | undefined, email: string): Promise<boolean> {
  if (!where) return true;
  const rows = (await strapi.db.query(UID.user).findMany({ where, select: ['id', 'email'] })) as { email?: string | null }[];
  return rows.some((row) => (row.email ?? '').toLowerCase() !== email.toLowerCase());
}
