import crypto from 'crypto';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { UID } from '../../../content-types';
import { publicUrl } from '../../../public-url';
import { EMAIL_CHANGE_TTL_MS, emailChangeMessages, type PendingEmailChange } from '../../../contract/emailChange';
import { createLimiter, type Limiter } from '../../../security/limits';
import type { RefusingLimit } from '../../../operations/metrics';
import { sendMail } from '../../../mail/send';
import { requestDevice } from '../../../mail/notify-owner';
import { isValidEmail } from '../../../contract/fieldRules';

/** The largest id an `integer` column holds (PostgreSQL). */
const MAX_ROW_ID = 2_147_483_647;

/** Only this hash of a link's secret is stored. */
export function hashEmailChangeSecret(secret: string): string {
  return crypto.createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex hashes (a missing one never matches). */
function sameHash(stored: string | null | undefined, computed: string): boolean {
  if (!stored || stored.length !== computed.length) return false;
  return crypto.timingSafeEqual(Buffer.from(stored, 'utf8'), Buffer.from(computed, 'utf8'));
}

/** A fresh link token for the member: `<id>.<secret>`, and the hash to store. */
function newToken(userId: number): { token: string; hash: string } {
  const secret = crypto.randomBytes(32).toString('base64url');
  return { token: `${userId}.${secret}`, hash: hashEmailChangeSecret(secret) };
}

interface PendingRow {
  id: number;
  email: string;
  username: string;
  pending_email: string | null;
  pending_email_expires_at: string | Date | null;
  email_change_token: string | null;
  email_change_cancel_token: string | null;
}

const PENDING_FIELDS = [
  'id',
  'email',
  'username',
  'pending_email',
  'pending_email_expires_at',
  'email_change_token',
  'email_change_cancel_token',
];

/**
 * The budget key of a target address: lower-cased, without a "+tag" (one mailbox), hashed (no
 * addresses in Redis).
 */
function targetKey(email: string): string {
  const [local, domain] = email.trim().toLowerCase().split('@');
  const mailbox = `${local.split('+')[0] || local}@${domain}`;
  return crypto.createHash('sha256').update(mailbox, 'utf8').digest('hex');
}

interface EmailChangeLimitConfig {
  perMemberPerHour: number;
  perAddressPerDay: number;
}

/** Why a request was refused (429), and when to try again. */
export interface EmailChangeRefusal {
  limit: Extract<RefusingLimit, 'email-change-member' | 'email-change-address'>;
  retryAfterSec: number;
  message: string;
}

/** No pending change: what confirming or cancelling writes. */
const CLEARED = { pending_email: null, pending_email_expires_at: null, email_change_token: null, email_change_cancel_token: null };

/**
 * Verified e-mail change (docs/security.md#verified-e-mail-change): the profile asks for a new address,
 * the link mailed to it makes the change, the link mailed to the old address cancels it.
 */
const createEmailChangeService = ({ strapi }: { strapi: Core.Strapi }) => {
  const users = () => strapi.db.query(UID.user);
  // Made on first use, from the settings (config/security.ts); shared by every instance through Redis.
  let limiters: { member: Limiter; address: Limiter } | undefined;
  const limits = () => {
    if (limiters) return limiters;
    const { perMemberPerHour, perAddressPerDay } = strapi.config.get('security.emailChangeLimit') as EmailChangeLimitConfig;
    return (limiters = {
      member: createLimiter('email-change-member', { points: perMemberPerHour, durationSec: 60 * 60 }),
      address: createLimiter('email-change-address', { points: perAddressPerDay, durationSec: 24 * 60 * 60 }),
    });
  };

  /** The member whose pending change the token (well-formed: the route's body rule) names, when its secret matches `field`'s hash. */
  const findByToken = async (token: string, field: 'email_change_token' | 'email_change_cancel_token'): Promise<PendingRow | null> => {
    const [id, secret] = token.split('.');
    // No row has an id past PostgreSQL's integer: asking would fail the query (a 500), not find nobody.
    if (Number(id) > MAX_ROW_ID) return null;
    const row = (await users().findOne({ where: { id: Number(id) }, select: PENDING_FIELDS })) as PendingRow | null;
    if (!row || !sameHash(row[field], hashEmailChangeSecret(secret))) return null;
    return row;
  };

  const addressHolder = async (email: string, exceptId: number): Promise<boolean> => {
    const holder = (await users().findOne({ where: { email: { $eqi: email } }, select: ['id'] })) as { id: number } | null;
    return holder !== null && holder.id !== exceptId;
  };

  const link = (page: 'confirm' | 'cancel', token: string) => `${publicUrl()}/email-change/${page}?token=${encodeURIComponent(token)}`;

  return {
    /**
     * Counts one request (an atomic increment, before anything is written or queued) against the
     * member's hourly budget, then the target address's daily one; the refusal, or null to go ahead.
     * A member refused for their own budget spends none of the address's.
     */
    async reserve(userId: number, newEmail: string): Promise<EmailChangeRefusal | null> {
      const byMember = await limits().member.consume(`user:${userId}`);
      if (!byMember.allowed) {
        const { retryAfterSec } = byMember;
        return { limit: 'email-change-member', retryAfterSec, message: emailChangeMessages.tooManyRequests(retryAfterSec) };
      }
      const byAddress = await limits().address.consume(targetKey(newEmail));
      if (!byAddress.allowed) {
        const { retryAfterSec } = byAddress;
        return { limit: 'email-change-address', retryAfterSec, message: emailChangeMessages.tooManyToAddress(retryAfterSec) };
      }
      return null;
    },

    /**
     * Stores the member's pending change (replacing any earlier one) and queues, in the caller's
     * transaction, the link to the new address (an address the mail rule refuses fails the request) and
     * the notice with a cancel link to the old one.
     * The address itself does not change.
     */
    async request(userId: number, newEmail: string): Promise<PendingEmailChange> {
      const row = (await users().findOne({ where: { id: userId }, select: ['id', 'email', 'username'] })) as PendingRow;
      const confirm = newToken(userId);
      const cancel = newToken(userId);
      const expiresAt = new Date(Date.now() + EMAIL_CHANGE_TTL_MS);
      await users().update({
        where: { id: userId },
        data: {
          pending_email: newEmail,
          pending_email_expires_at: expiresAt,
          email_change_token: confirm.hash,
          email_change_cancel_token: cancel.hash,
        },
      });
      await sendMail(strapi, 'email-change-confirm', newEmail, {
        username: row.username,
        newEmail,
        confirmUrl: link('confirm', confirm.token),
        expiresAt,
      });
      // The notice (with its cancel link) is part of the request, in the same transaction: no change
      // waits unannounced. Only an old address stored before the mail rule, which no mail can reach, is
      // passed over (logged), so that it does not keep the member on it.
      if (isValidEmail(row.email)) {
        await sendMail(strapi, 'email-change-notice', row.email, {
          username: row.username,
          oldEmail: row.email,
          newEmail,
          cancelUrl: link('cancel', cancel.token),
          at: new Date(),
          device: requestDevice(strapi),
        });
      } else {
        strapi.log.warn(`[mail] user ${userId}: no e-mail change notice, the stored address breaks the address rule`);
      }
      return { pendingEmail: newEmail, expiresAt: expiresAt.toISOString() };
    },

    /**
     * Makes the change the token confirms: once, within 24 hours, and only while no other account has
     * the address. The new address ends every session and voids a mailed reset code (src/security/sessions/revocation.ts).
     */
    async confirm(token: string): Promise<{ email: string }> {
      return strapi.db.transaction(async () => {
        const row = await findByToken(token, 'email_change_token');
        const expiresAt = row?.pending_email_expires_at ? new Date(row.pending_email_expires_at).getTime() : NaN;
        if (!row || !row.pending_email || !(expiresAt > Date.now())) {
          throw new errors.ValidationError(emailChangeMessages.invalidConfirmLink);
        }
        const email = row.pending_email;
        if (await addressHolder(email, row.id)) throw new errors.ApplicationError(emailChangeMessages.taken);
        // Single use: only the request that clears this exact token makes the change.
        const { count } = await users().updateMany({ where: { id: row.id, email_change_token: row.email_change_token }, data: CLEARED });
        if (count !== 1) throw new errors.ValidationError(emailChangeMessages.invalidConfirmLink);
        try {
          await users().update({ where: { id: row.id }, data: { email } });
        } catch (error) {
          // A racing account took it (the unique index on lower(email)); the transaction undoes the clearing.
          if (await addressHolder(email, row.id).catch(() => true)) throw new errors.ApplicationError(emailChangeMessages.taken);
          throw error;
        }
        return { email };
      });
    },

    /** Voids the pending change the old address's link names. */
    async cancel(token: string): Promise<void> {
      const row = await findByToken(token, 'email_change_cancel_token');
      const { count } = row
        ? await users().updateMany({ where: { id: row.id, email_change_cancel_token: row.email_change_cancel_token }, data: CLEARED })
        : { count: 0 };
      if (count !== 1) throw new errors.ValidationError(emailChangeMessages.invalidCancelLink);
    },
  };
};

export type EmailChangeService = ReturnType<typeof createEmailChangeService>;
export default createEmailChangeService;
