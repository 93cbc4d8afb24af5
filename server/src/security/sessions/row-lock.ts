import type { Core } from '@strapi/strapi';

/**
 * A member's session rows have one writer at a time across every instance: a new session's row (written,
 * then checked against revocations since its token was signed) and a revocation of all the member's rows
 * each run under a PostgreSQL advisory lock held to the end of their transaction. Without it, a revocation
 * whose UPDATE had not seen the new row yet, and had not committed when the new row's check ran, let that
 * session outlive it (server/tests/security/member-sessions-cluster.test.ts makes that interleaving).
 * SQLite: one process, one connection, each statement seen by the next; nothing to wait for.
 *
 * It guards the session rows (and what a revocation removes with them: recent passkeys, two-factor tickets):
 * holders never take the member's row lock inside (../member-lock.ts), so the two cannot deadlock, and inside a
 * transaction already open it is held until that ends.
 */

/** The advisory lock's first key ("SeSs"); the second is the member's id. */
export const SESSION_ROWS_LOCK = 0x53655373;

export async function withSessionRowsLock<T>(strapi: Core.Strapi, memberId: number | string, work: () => Promise<T>): Promise<T> {
  if (strapi.db.dialect.client !== 'postgres') return work();
  return strapi.db.transaction(async ({ trx }) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?, ?)', [SESSION_ROWS_LOCK, Number(memberId)]);
    return work();
  });
}
