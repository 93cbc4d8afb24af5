import crypto from 'crypto';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { UID } from '../../../content-types';
import { publicUrl } from '../../../public-url';
import { forgotPasswordBody, normaliseResetCode, resetMessages, resetPasswordBody } from '../../../contract/passwords';
import { validBody } from '../../../validated-body';
import { readAuthSettings } from '../../../bootstrap/auth-settings';
import { sendMail } from '../../../mail/send';

/** No 0/O, 1/I/L: easy to read from an e-mail and type in. */
export const RESET_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const RESET_CODE_LENGTH = 10;
export const RESET_CODE_TTL_MS = 60 * 60 * 1000;
/** forgot-password answers no sooner than this, account or not, so its time does not tell (the code is stored before the answer). */
export const FORGOT_PASSWORD_MIN_MS = 150;

export function generateResetCode(): string {
  let code = '';
  for (let i = 0; i < RESET_CODE_LENGTH; i += 1) {
    code += RESET_CODE_ALPHABET[crypto.randomInt(RESET_CODE_ALPHABET.length)];
  }
  return code;
}

/** Only this hash is stored (users-permissions' private resetPasswordToken). */
export function hashResetCode(code: string): string {
  return crypto.createHash('sha256').update(normaliseResetCode(code), 'utf8').digest('hex');
}

interface ResetUser {
  id: number;
  username: string;
  email: string;
  blocked?: boolean | null;
}

/**
 * Password reset by e-mailed code (POST /api/auth/forgot-password and /api/auth/reset-password,
 * wired in src/extensions/users-permissions/strapi-server.ts).
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const users = () => strapi.db.query(UID.user);

  /** The SPA page the e-mailed link opens (users-permissions' "reset password page" setting). */
  const resetPageUrl = async (): Promise<string> => {
    const advanced = await readAuthSettings(strapi);
    return advanced.email_reset_password || `${publicUrl()}/reset-password`;
  };

  /**
   * New code for the user (replacing any earlier one), stored as a hash with its expiry, and its
   * e-mail queued in the same transaction: both are written, or neither.
   */
  const issueCode = async (user: ResetUser): Promise<void> => {
    const code = generateResetCode();
    const expiresAt = new Date(Date.now() + RESET_CODE_TTL_MS);
    const url = new URL(await resetPageUrl());
    url.searchParams.set('code', code);
    await strapi.db.transaction(async () => {
      await users().update({
        where: { id: user.id },
        data: { resetPasswordToken: hashResetCode(code), resetPasswordTokenExpiresAt: expiresAt },
      });
      await sendMail(strapi, 'password-reset', user.email, { username: user.username, code, link: url.toString(), expiresAt });
    });
  };

  return {
    /**
     * Answers the same for known, unknown and blocked addresses: only the e-mail format is checked.
     * The code and its queued e-mail are committed before the answer (a crash right after it loses
     * nothing); every answer takes at least FORGOT_PASSWORD_MIN_MS, so the time does not reveal
     * whether the account exists.
     */
    async forgotPassword(body: unknown): Promise<void> {
      const { email } = validBody(forgotPasswordBody, body);
      const started = Date.now();
      const user = (await users().findOne({
        where: { email },
        select: ['id', 'username', 'email', 'blocked'],
      })) as ResetUser | null;
      if (user && !user.blocked) {
        await issueCode(user).catch((error: unknown) => {
          // Nothing was written; the answer stays the same.
          strapi.log.error(
            `[password-reset] could not issue a reset code to user ${user.id}: ${error instanceof Error ? error.message : String(error)}`,
          );
        });
      }
      const wait = FORGOT_PASSWORD_MIN_MS - (Date.now() - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    },

    /** Sets the new password; returns the user's id. Every earlier session ends (src/security/sessions/revocation.ts). */
    async resetPassword(body: unknown): Promise<number> {
      // SPEC §5 reset step 2, the same schema as the reset form's; the code comes back normalised.
      const { code, password } = validBody(resetPasswordBody, body);

      const tokenHash = hashResetCode(code);
      const user = (await users().findOne({
        where: { resetPasswordToken: tokenHash },
        select: ['id', 'blocked', 'resetPasswordTokenExpiresAt'],
      })) as { id: number; blocked: boolean | null; resetPasswordTokenExpiresAt: string | Date | null } | null;

      const expiresAt = user?.resetPasswordTokenExpiresAt ? new Date(user.resetPasswordTokenExpiresAt).getTime() : NaN;
      if (!user || user.blocked || !(expiresAt > Date.now())) {
        throw new errors.ValidationError(resetMessages.invalidCode);
      }

      // Single use: only the request that clears this exact code may set the password.
      const { count } = await users().updateMany({
        where: { id: user.id, resetPasswordToken: tokenHash },
        data: { resetPasswordToken: null, resetPasswordTokenExpiresAt: null },
      });
      if (count !== 1) {
        throw new errors.ValidationError(resetMessages.invalidCode);
      }

      // Through users-permissions (Document Service), which hashes the password.
      await strapi.plugin('users-permissions').service('user').edit(user.id, { password });
      return user.id;
    },
  };
};
