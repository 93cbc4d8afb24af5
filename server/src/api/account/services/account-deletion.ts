import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { UID } from '../../../content-types';
import { withMemberLock } from '../../../security/member-lock';
import { memberFiles, removeFile, unlinkFromMember } from '../../../uploads/member-files';

/** The user row as loaded for deletion (private fields included, media fields populated). */
export interface DeletableUser {
  id: number;
  documentId: string;
  username: string;
  email: string;
  stripeCustomerId?: string | null;
  [field: string]: unknown;
}

/**
 * A module's own clean-up for a user about to be deleted (e.g. cancel their subscription).
 * Runs before anything is removed; throwing aborts the deletion and leaves the account intact.
 */
export type AccountCleanup = (user: DeletableUser, context: { strapi: Core.Strapi }) => Promise<void> | void;

export interface AccountDeletionService {
  registerCleanup(name: string, cleanup: AccountCleanup): void;
  /** Names of the registered clean-ups, in the order they run. */
  cleanups(): string[];
  deleteAccount(userId: number): Promise<{ userId: number; removedFiles: number }>;
}

/**
 * Account deletion (DELETE /api/users-permissions/users/delete-account).
 *
 * Other modules add what they own to the deletion from their register/bootstrap:
 *
 *   strapi.service('api::account.account-deletion').registerCleanup('subscriptions', async (user, { strapi }) => {
 *     ...cancel the user's subscription...
 *   });
 *
 * deleteAccount(userId) then runs, in order: every registered clean-up; then, holding the member's
 * lock (security/member-lock.ts), removal through the upload plugin of every file the member
 * uploaded (src/uploads/member-files.ts: recorded as theirs on the file row, whether or not still
 * linked, plus legacy uploads linked to them), so every size on disk or in S3 and the records go,
 * and deletion of the user document (its components and relation links go with it).
 */
export default ({ strapi }: { strapi: Core.Strapi }): AccountDeletionService => {
  const registered = new Map<string, AccountCleanup>();

  const mediaFields = (): string[] =>
    Object.entries(strapi.getModel(UID.user).attributes)
      .filter(([, attribute]) => attribute.type === 'media')
      .map(([name]) => name);

  return {
    registerCleanup(name, cleanup) {
      if (typeof cleanup !== 'function') {
        throw new TypeError(`account-deletion: clean-up "${name}" must be a function`);
      }
      if (registered.has(name)) {
        throw new Error(`account-deletion: a clean-up named "${name}" is already registered`);
      }
      registered.set(name, cleanup);
    },

    cleanups() {
      return [...registered.keys()];
    },

    async deleteAccount(userId) {
      const fields = mediaFields();
      const user = (await strapi.db
        .query(UID.user)
        .findOne({ where: { id: userId }, populate: fields })) as DeletableUser | null;
      if (!user) {
        throw new errors.NotFoundError('Account not found');
      }

      for (const [name, cleanup] of registered) {
        try {
          await cleanup(user, { strapi });
        } catch (error) {
          strapi.log.error(`[account] clean-up "${name}" failed for user ${user.id}; the account was not deleted`);
          throw error;
        }
      }

      // Under the member's lock, so a picture upload racing the deletion either finishes first (and
      // its file is removed here) or finds the account gone. Every file the member ever uploaded
      // (recorded as theirs, linked or not), and every legacy upload linked to them, is removed;
      // an admin's media linked to them is only unlinked.
      const removedFiles = await withMemberLock(strapi, user.id, async ({ trx, exists }) => {
        if (!exists) throw new errors.NotFoundError('Account not found');
        const { own, linkedOnly } = await memberFiles(strapi, user.id, { trx });
        await unlinkFromMember(strapi, user.id, linkedOnly.map((file) => file.id), trx);
        for (const file of own) await removeFile(strapi, file);
        await strapi.documents(UID.user).delete({ documentId: user.documentId });
        return own.length;
      });

      // Refresh-token sessions, when that mode is on (legacy JWTs die with the user row).
      const sessionManager = (strapi as unknown as { sessionManager?: SessionManager }).sessionManager;
      if (sessionManager?.hasOrigin?.('users-permissions')) {
        await sessionManager('users-permissions').invalidateRefreshToken(String(user.id));
      }

      strapi.log.info(`[account] deleted user ${user.id} and ${removedFiles} file(s)`);
      return { userId: user.id, removedFiles };
    },
  };
};

type SessionManager = ((origin: string) => { invalidateRefreshToken(userId: string): Promise<unknown> }) & {
  hasOrigin?: (origin: string) => boolean;
};
