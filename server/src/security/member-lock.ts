import { AsyncLocalStorage } from 'node:async_hooks';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Knex } from 'knex';
import { UID } from '../content-types';

/**
 * One change of a member's money, picture or existence at a time (purchase, payment, cancel,
 * resume, picture replacement, account deletion), across every server process on the database.
 * Each runs in a transaction that first locks the member's row: PostgreSQL's SELECT ... FOR UPDATE,
 * which every process waits for until commit; SQLite has no row locks, so a first write takes the
 * database's write lock until commit (within a process, Knex's single SQLite connection already
 * serialises transactions). Queries inside `work` run in that transaction (Strapi's transaction
 * context); `trx` is handed over for raw Knex queries.
 *
 * A request that waited for a member deleted meanwhile finds no row: by default it is refused
 * ("Account not found"), so nothing is created for an account that no longer exists. Re-entrant:
 * `work` may take the same member's lock again (the deletion runs the subscriptions' clean-up).
 */

export const ACCOUNT_GONE = 'Account not found';

export interface MemberLockContext {
  trx: Knex.Transaction;
  /** False when the member's row is gone (only with whenGone: 'run'). */
  exists: boolean;
}

export interface MemberLockOptions {
  /**
   * Errors after which what `work` did is committed all the same (a payment gateway already acted
   * on it, so the database must keep describing it), then thrown. Any other error rolls back.
   */
  keepsWork?: (error: unknown) => boolean;
  /** 'refuse' (default): a member gone meanwhile answers 404 "Account not found"; 'run': `work` decides. */
  whenGone?: 'refuse' | 'run';
}

/** Requests of this process queue in memory first: a burst holds one connection per member, not one per request. */
const queues = new WeakMap<Core.Strapi, Map<number, Promise<unknown>>>();
/** The members whose lock the current async context holds, with its transaction. */
const held = new AsyncLocalStorage<ReadonlyMap<number, Knex.Transaction>>();

/** Locks the member's row inside `trx`; tells whether the member still exists. */
export async function lockMemberRow(strapi: Core.Strapi, userId: number, trx: Knex.Transaction): Promise<boolean> {
  const { tableName } = strapi.db.metadata.get(UID.user);
  const row = strapi.db.getConnection(tableName).transacting(trx).where('id', userId);
  if (strapi.db.dialect.client === 'sqlite') {
    return Number(await row.update({ id: strapi.db.connection.ref('id') })) > 0;
  }
  return (await row.forUpdate().select('id')).length > 0;
}

export async function withMemberLock<T>(
  strapi: Core.Strapi,
  userId: number,
  work: (context: MemberLockContext) => Promise<T>,
  { keepsWork = () => false, whenGone = 'refuse' }: MemberLockOptions = {},
): Promise<T> {
  const holding = held.getStore();
  const heldTrx = holding?.get(userId);
  if (heldTrx) return work({ trx: heldTrx, exists: true });

  let members = queues.get(strapi);
  if (!members) queues.set(strapi, (members = new Map()));

  const locked = async (): Promise<T> => {
    type Outcome = { ok: true; value: T } | { ok: false; error: unknown };
    const outcome = await strapi.db.transaction(async ({ trx }): Promise<Outcome> => {
      const exists = await lockMemberRow(strapi, userId, trx);
      if (!exists && whenGone === 'refuse') throw new errors.NotFoundError(ACCOUNT_GONE);
      try {
        const value = await held.run(new Map([...(holding ?? []), [userId, trx]]), () => work({ trx, exists }));
        return { ok: true, value };
      } catch (error) {
        if (keepsWork(error)) return { ok: false, error };
        throw error;
      }
    });
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  };

  const previous = members.get(userId) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(locked);
  members.set(userId, run);
  try {
    return await run;
  } finally {
    if (members.get(userId) === run) members.delete(userId);
  }
}
