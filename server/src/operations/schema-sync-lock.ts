import type { Core } from '@strapi/strapi';

/**
 * Instances starting at once on one PostgreSQL schema take turns at Strapi's schema sync (docs/instances.md):
 * each diffs the tables it finds against its content types and alters them, and two at once both dropped the
 * column a release removed; the second failed to start ("column … does not exist"). A session-level advisory
 * lock on a connection of its own is taken once the database is initialised, before the sync and the hooks
 * around it (the legacy-token upgrade reads that column), and released after them; the next instance then
 * finds the schema current. A start that fails midway exits, and the lock goes with its connection.
 * SQLite: one process per database file.
 */

/** The lock's first key ("Sync"); the second is the schema's name, hashed, so deployments on one database keep apart. */
export const SCHEMA_SYNC_LOCK = 0x53796e63;

interface PgConnection {
  query(text: string, values?: unknown[]): Promise<unknown>;
}
interface KnexClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<void>;
}

export function takeTurnsAtSchemaSync(strapi: Core.Strapi): void {
  const db = strapi.db;
  if (db.dialect.client !== 'postgres') return;
  let held: { client: KnexClient; connection: PgConnection } | null = null;
  const init = db.init.bind(db);
  db.init = async (...args: Parameters<typeof init>) => {
    const initialised = await init(...args);
    const client = (db.connection as unknown as { client: KnexClient }).client;
    const connection = await client.acquireConnection();
    await connection.query('SELECT pg_advisory_lock($1, hashtext(current_schema()))', [SCHEMA_SYNC_LOCK]);
    held = { client, connection };
    return initialised;
  };
  strapi.hook('strapi::content-types.afterSync').register(async () => {
    if (!held) return;
    const { client, connection } = held;
    held = null;
    try {
      await connection.query('SELECT pg_advisory_unlock($1, hashtext(current_schema()))', [SCHEMA_SYNC_LOCK]);
    } finally {
      await client.releaseConnection(connection);
    }
  });
}
