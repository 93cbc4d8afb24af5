import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingServices, startCluster, withPostgres, type Cluster, type Instance } from '../helpers/instances';
import { SCHEMA_SYNC_LOCK } from '../../src/operations/schema-sync-lock';
import { SIGNED_OUT_REASON } from '../../src/contract/sessions';
import { CUT_OFF_COLUMN, USERS_TABLE, oldToken, schemaWithCutOff } from '../helpers/legacy-sessions';

/**
 * The upgrade from the per-member cut-off to session rows (src/security/sessions/legacy-tokens.ts) on
 * PostgreSQL, with both instances of a deployment restarted at once on the old layout: each member gets
 * exactly one legacy row (the two boots' writes take turns), no one is signed out, no refused token comes
 * back, and either instance honours the other's revocation of an old token.
 */

const missing = await missingServices();
if (missing) console.warn(`[session-migration-cluster.test] skipped: ${missing}`);

const JWT_SECRET = crypto.randomBytes(16).toString('base64');
let cluster: Cluster;
let a: Instance;
let b: Instance;
const call: Cluster['call'] = (...args) => cluster.call(...args);
const works = async (instance: Instance, token: string) => (await call(instance, 'GET', '/api/users/me', { token })).status;
const sql: Cluster['sql'] = (...args) => cluster.sql(...args);

const ids: Record<string, number> = {};
const tokens: Record<string, string> = {};

const register = (name: string) => cluster.register(a, name);

async function stopInstance(instance: Instance) {
  instance.child.kill('SIGTERM');
  const timer = setTimeout(() => instance.child.kill('SIGKILL'), 15_000);
  await instance.exited;
  clearTimeout(timer);
}

describe.skipIf(missing !== null)('the upgrade to session rows on PostgreSQL, two instances at once', () => {
  beforeAll(async () => {
    cluster = await startCluster(2, { JWT_SECRET });
    [a, b] = cluster.instances;
    for (const name of ['pgann', 'pgbob', 'pgcid']) {
      const member = await register(name);
      ids[name] = member.id;
      tokens[`${name}Device`] = member.jwt;
    }
    // The release before: the cut-off column, tracked in Strapi's stored schema.
    await sql(`ALTER TABLE ${USERS_TABLE} ADD COLUMN ${CUT_OFF_COLUMN} bigint`);
    const [stored] = await sql<{ id: number; schema: string | object }>('SELECT id, schema FROM strapi_database_schema LIMIT 1');
    const schema = schemaWithCutOff(stored.schema);
    expect(schema).not.toBeNull();
    await sql('UPDATE strapi_database_schema SET schema = $2, hash = $3 WHERE id = $1', [stored.id, schema, 'the release before']);
    // Ann never revoked anything; Bob and Cid logged out everywhere at `cutOff`.
    const cutOff = Date.now();
    await sql(`UPDATE ${USERS_TABLE} SET ${CUT_OFF_COLUMN} = $2 WHERE id = ANY($1)`, [[ids.pgbob, ids.pgcid], cutOff]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = await call(b, 'POST', '/api/auth/local', { body: { identifier: 'pgcid', password: 'pgcid-Pass-1' } });
    expect(later.status).toBe(200);
    tokens.cidAfter = later.body.jwt!;
    tokens.annOld = oldToken(JWT_SECRET, { id: ids.pgann, iatMs: Date.now() - 60_000 });
    tokens.bobBefore = oldToken(JWT_SECRET, { id: ids.pgbob, iatMs: cutOff - 60_000 });
    tokens.bobAfter = oldToken(JWT_SECRET, { id: ids.pgbob, iatMs: cutOff + 1 });

    // The deployment of the new release: both instances stop, then start together on the old layout.
    await Promise.all([stopInstance(a), stopInstance(b)]);
    const started = await Promise.all([cluster.restart(a), cluster.restart(b)]);
    console.log(`[session-migration-cluster] both instances upgraded and ready in ${started.join(' / ')} ms`);
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  it('drops the cut-off column and writes exactly one legacy row per member', async () => {
    const column = await sql('SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 AND column_name = $3', [
      cluster.schema,
      USERS_TABLE,
      CUT_OFF_COLUMN,
    ]);
    expect(column).toEqual([]);
    const legacy = await sql<{ sid: string; n: string }>(
      "SELECT sid, count(*) AS n FROM member_sessions WHERE sid LIKE 'legacy.%' GROUP BY sid ORDER BY sid",
    );
    expect(legacy).toEqual(
      [ids.pgann, ids.pgbob, ids.pgcid].map((id) => ({ sid: `legacy.${id}`, n: '1' })).sort((x, y) => x.sid.localeCompare(y.sid)),
    );
  });

  it('keeps every token the cut-off let through working on both instances, and refuses every one it refused', async () => {
    for (const instance of [a, b]) {
      expect(await works(instance, tokens.annOld)).toBe(200);
      expect(await works(instance, tokens.pgannDevice)).toBe(200);
      expect(await works(instance, tokens.bobAfter)).toBe(200);
      expect(await works(instance, tokens.bobBefore)).toBe(401);
      expect(await works(instance, tokens.cidAfter)).toBe(200);
      // Cid's first session came before the cut-off: its row is revoked, and the device is told why.
      const refused = await call(instance, 'GET', '/api/users/me', { token: tokens.pgcidDevice });
      expect(refused.status).toBe(401);
      expect(refused.body.error?.details).toEqual({ reason: SIGNED_OUT_REASON });
    }
  });

  it('"Log out of all devices" on one instance ends the old tokens on the other', async () => {
    expect((await call(a, 'POST', '/api/auth/logout-all', { token: tokens.annOld })).status).toBe(200);
    // Re-read: Ann's one legacy row is revoked, and nothing of hers works on either instance.
    const [row] = await sql<{ revoked_at: Date | null }>('SELECT revoked_at FROM member_sessions WHERE sid = $1', [`legacy.${ids.pgann}`]);
    expect(row.revoked_at).not.toBeNull();
    for (const instance of [a, b]) {
      expect(await works(instance, tokens.annOld)).toBe(401);
      expect(await works(instance, tokens.pgannDevice)).toBe(401);
    }
    expect(await works(b, tokens.bobAfter)).toBe(200);
  });

  it('an instance starting while another holds the schema sync waits its turn, then starts', async () => {
    await stopInstance(b);
    // Another instance's sync, as the server takes it (src/operations/schema-sync-lock.ts), held open.
    const started = await withPostgres(async (pg) => {
      await pg.query('SELECT pg_advisory_lock($1, hashtext($2))', [SCHEMA_SYNC_LOCK, cluster.schema]);
      const restarting = cluster.restart(b);
      let ready = false;
      void restarting.then(() => (ready = true));
      await new Promise((resolve) => setTimeout(resolve, 8000));
      // Without the turn it would have synced and answered by now (a start alone takes 3-5 s here).
      expect(ready).toBe(false);
      expect(b.child.exitCode).toBeNull();
      await pg.query('SELECT pg_advisory_unlock($1, hashtext($2))', [SCHEMA_SYNC_LOCK, cluster.schema]);
      return restarting;
    });
    console.log(`[session-migration-cluster] B ready ${started} ms after its start, 8 s of it waiting for the turn`);
    expect(await works(b, tokens.bobAfter)).toBe(200);
  });
});
