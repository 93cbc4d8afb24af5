import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { errors } from '@strapi/utils';
import { UID } from '../../../content-types';
import { withMemberLock } from '../../../security/member-lock';
import { notifyOwner } from '../../../mail/notify-owner';
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
 * deleteAccount(userId) then runs, all holding the member's lock (security/member-lock.ts) in one
 * transaction: every registered clean-up; removal through the upload plugin of every file the member
 * uploaded (src/uploads/member-files.ts: recorded as theirs on the file row, whether or not still
 * linked, plus legacy uploads linked to them), so every size on disk or in S3 and the records go;
 * deletion of the user document (its components and relation links go with it).
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
      return withMemberLock(strapi, userId, ({ trx }) => deleteLocked(userId, trx), {
        keepsWork: (error) => error instanceof CleanupFailed,
      }).catch((error: unknown) => {
        throw error instanceof CleanupFailed ? error.original : error;
      });
    },
  };

  async function deleteLocked(userId: number, trx: Knex.Transaction): Promise<{ userId: number; removedFiles: number }> {
    const fields = mediaFields();
    const user = (await strapi.db.query(UID.user).findOne({ where: { id: userId }, populate: fields })) as DeletableUser | null;
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

    // Every file the member ever uploaded (recorded as theirs, linked or not) and every legacy upload
    // linked to them is removed; an admin's media linked to them is only unlinked. Under the lock, a
    // picture upload racing the deletion either finished first (its file goes here) or finds no account.
    const { own, linkedOnly } = await memberFiles(strapi, user.id, { trx });
    await unlinkFromMember(
      strapi,
      user.id,
      linkedOnly.map((file) => file.id),
      trx,
    );
    for (const file of own) await removeFile(strapi, file);

    await strapi.documents(UID.user).delete({ documentId: user.documentId });
    await notifyOwner(strapi, { email: user.email, username: user.username }, 'account-deleted');

    // Refresh-token sessions, when that mode is on (legacy JWTs die with the user row).
    const sessionManager = (strapi as unknown as { sessionManager?: SessionManager }).sessionManager;
    if (sessionManager?.hasOrigin?.('users-permissions')) {
      await sessionManager('users-permissions').invalidateRefreshToken(String(user.id));
    }

    strapi.log.info(`[account] deleted user ${user.id} and ${own.length} file(s)`);
    return { userId: user.id, removedFiles: own.length };
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
