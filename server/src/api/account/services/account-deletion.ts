import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { UID } from '../../../content-types';
import { withMemberLock } from '../../../members/member-lock';

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

interface UploadedFile {
  id: number;
  name?: string;
  provider?: string;
}

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
 * deleteAccount(userId) then runs, in order: every registered clean-up; removal of the files in the
 * user's media fields (profile picture) through the upload plugin, so the files on disk and their
 * records go; deletion of the user document (its components and relation links go with it).
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

    deleteAccount(userId) {
      // Under the member's lock, in one transaction: a purchase waiting for the lock then finds no
      // account, instead of creating a customer and a payable attempt for one being deleted.
      return withMemberLock(strapi, userId, () => deleteLocked(userId), { keepsWork: (error) => error instanceof CleanupFailed }).catch(
        (error: unknown) => {
          throw error instanceof CleanupFailed ? error.original : error;
        }
      );
    },
  };

  async function deleteLocked(userId: number): Promise<{ userId: number; removedFiles: number }> {
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
        // What the earlier clean-ups did is kept (a gateway already ended subscriptions).
        throw new CleanupFailed(error);
      }
    }

    const files = fields.flatMap((field) => {
      const value = user[field] as UploadedFile | UploadedFile[] | null | undefined;
      return value ? (Array.isArray(value) ? value : [value]) : [];
    });
    const uploads = strapi.plugin('upload').service('upload');
    for (const file of files) {
      // Full row (formats, provider, hash) so the provider removes every variant on disk.
      const row = await strapi.db.query(UID.file).findOne({ where: { id: file.id } });
      if (row) await uploads.remove(row);
    }

    await strapi.documents(UID.user).delete({ documentId: user.documentId });

    // Refresh-token sessions, when that mode is on (legacy JWTs die with the user row).
    const sessionManager = (strapi as unknown as { sessionManager?: SessionManager }).sessionManager;
    if (sessionManager?.hasOrigin?.('users-permissions')) {
      await sessionManager('users-permissions').invalidateRefreshToken(String(user.id));
    }

    strapi.log.info(`[account] deleted user ${user.id} and ${files.length} file(s)`);
    return { userId: user.id, removedFiles: files.length };
  }
};

/** A clean-up's failure: the account stays, what earlier clean-ups did is committed. */
class CleanupFailed extends Error {
  constructor(readonly original: unknown) {
    super(original instanceof Error ? original.message : String(original));
  }
}

type SessionManager = ((origin: string) => { invalidateRefreshToken(userId: string): Promise<unknown> }) & {
  hasOrigin?: (origin: string) => boolean;
};
