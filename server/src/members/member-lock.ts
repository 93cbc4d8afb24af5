import { AsyncLocalStorage } from 'node:async_hooks';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Knex } from 'knex';
import { UID } from '../content-types';

/**
 * One change of a member's money or existence at a time (purchase, payment, cancel, resume,
 * account deletion), across every server process on the database. Each runs in a transaction
 * that first locks the member's row: PostgreSQL's SELECT ... FOR UPDATE, which every process
 * waits for until commit; SQLite has no row locks, so a first write takes the database's write
 * lock until commit. Queries inside `work` run in that transaction (Strapi's transaction context).
 *
 * A request that waited for a member deleted meanwhile finds no row and is refused, so nothing is
 * created for an account that no longer exists. Re-entrant: `work` may take the same member's lock
 * again (the deletion runs the subscriptions' clean-up, which locks too).
 */

export const ACCOUNT_GONE = 'Account not found';

interface LockState {
  /** Requests of this process queue in memory first: a burst holds one connection per member, not one per request. */
  queues: Map<number, Promise<unknown>>;
}

const states = new WeakMap<Core.Strapi, LockState>();
const held = new AsyncLocalStorage<ReadonlySet<number>>();

async function lockMemberRow(strapi: Core.Strapi, userId: number, trx: Knex.Transaction): Promise<boolean> {
  const { tableName } = strapi.db.metadata.get(UID.user);
  const row = strapi.db.getConnection(tableName).transacting(trx).where('id', userId);
  if (strapi.db.dialect.client === 'sqlite') {
    return Number(await row.update({ id: strapi.db.connection.ref('id') })) > 0;
  }
  return (await row.forUpdate().select('id')).length > 0;
}

export interface MemberLockOptions {
  /**
   * Errors after which what `work` did is committed all the same (a gateway already acted on it,
   * so the database must keep describing it), then thrown. Any other error rolls back.
   */
  keepsWork?: (error: unknown) => boolean;
}

export async function withMemberLock<T>(
  strapi: Core.Strapi,
  userId: number,
  work: () => Promise<T>,
  { keepsWork = () => false }: MemberLockOptions = {}
): Promise<T> {
  if (held.getStore()?.has(userId)) return work();
  let state = states.get(strapi);
  if (!state) states.set(strapi, (state = { queues: new Map() }));
  const { queues } = state;

  const locked = async (): Promise<T> => {
    type Outcome = { ok: true; value: T } | { ok: false; error: unknown };
    const outcome = await strapi.db.transaction(async ({ trx }): Promise<Outcome> => {
      if (!(await lockMemberRow(strapi, userId, trx))) throw new errors.NotFoundError(ACCOUNT_GONE);
      try {
        const holding = new Set([...(held.getStore() ?? []), userId]);
        return { ok: true, value: await held.run(holding, work) };
      } catch (error) {
        if (keepsWork(error)) return { ok: false, error };
        throw error;
      }
    });
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  };

  const previous = queues.get(userId) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(locked);
  queues.set(userId, run);
  try {
    return await run;
  } finally {
    if (queues.get(userId) === run) queues.delete(userId);
  }
}
