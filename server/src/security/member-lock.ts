import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { UID } from '../content-types';

/**
 * Takes a member's lock in the database, inside the transaction `trx`, and tells whether the member
 * still exists. PostgreSQL: a row lock on the user (SELECT ... FOR UPDATE), which every server
 * process sharing the database waits for until commit. SQLite has no row locks: a first write takes
 * the database's write lock until commit, so another process on the same file waits as well
 * (within a process, Knex's single SQLite connection already serialises transactions).
 *
 * Used by purchases and cancellations (subscription service), profile-picture replacement
 * (extensions/upload/profile-picture-guard.ts) and account deletion.
 */
export async function lockMemberRow(strapi: Core.Strapi, userId: number, trx: Knex.Transaction): Promise<boolean> {
  const { tableName } = strapi.db.metadata.get(UID.user);
  const row = strapi.db.getConnection(tableName).transacting(trx).where('id', userId);
  if (strapi.db.dialect.client === 'sqlite') {
    const updated = await row.update({ id: strapi.db.connection.ref('id') });
    return Number(updated) > 0;
  }
  const rows = await row.forUpdate().select('id');
  return rows.length > 0;
}

const queues = new WeakMap<Core.Strapi, Map<number, Promise<unknown>>>();

/**
 * `work` in a database transaction that holds the member's lock (see lockMemberRow), one at a time
 * per member and process: requests of this process queue in memory first, so that a burst holds
 * one database connection per member, not one per request. `exists` is false when the member's row
 * is gone (e.g. the account was deleted meanwhile). Throwing rolls the transaction back.
 */
export async function withMemberLock<T>(
  strapi: Core.Strapi,
  userId: number,
  work: (context: { trx: Knex.Transaction; exists: boolean }) => Promise<T>
): Promise<T> {
  let members = queues.get(strapi);
  if (!members) queues.set(strapi, (members = new Map()));
  const previous = members.get(userId) ?? Promise.resolve();
  const run = previous
    .catch(() => undefined)
    .then(() =>
      strapi.db.transaction(async ({ trx }) => {
        const exists = await lockMemberRow(strapi, userId, trx);
        return work({ trx, exists });
      })
    );
  members.set(userId, run);
  try {
    return await run;
  } finally {
    if (members.get(userId) === run) members.delete(userId);
  }
}
