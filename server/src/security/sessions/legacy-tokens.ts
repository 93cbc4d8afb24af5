import type { Core } from '@strapi/strapi';
import { UID } from '../../content-types';
import { legacySessionId } from './records';

/**
 * Tokens from before the session rows keep working (docs/security.md#revocable-sessions). Revocation used to
 * be a per-member cut-off, `up_users.sessions_valid_after`: a token issued before it was refused. Once,
 * before Strapi's schema sync drops that column, each member's cut-off becomes a legacy session row
 * (`legacy.<id>`, issued at the cut-off): a token without a sid works while that row is live and the
 * token was issued at or after it, so no one is signed out and no revoked token comes back. A session
 * row issued before its member's cut-off is marked revoked, as the cut-off refused its token.
 *
 * Runs on every start and finds nothing to do once the column is gone. Two instances starting at once on
 * PostgreSQL take turns (an advisory lock held to the end of the writing transaction), so the second finds
 * the first's rows and each member has one legacy row (server/tests/security/session-migration-cluster.test.ts).
 */

const COLUMN = 'sessions_valid_after';
const CHUNK = 500;
/** The advisory lock the upgrade's writers take turns on ("LgCy"). */
const LEGACY_ROWS_LOCK = 0x4c674379;
const UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000, y: 31_557_600_000 };

interface CutOff {
  id: number;
  validAfter: number;
}

/** The configured token lifetime (users-permissions' `jwt.expiresIn`: seconds, or "7d"-style), when readable. */
function tokenLifetimeMs(strapi: Core.Strapi): number | null {
  const expiresIn = strapi.config.get<unknown>('plugin::users-permissions.jwt.expiresIn');
  if (typeof expiresIn === 'number') return expiresIn * 1000;
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w|y)?$/i.exec(String(expiresIn ?? '').trim());
  return match ? Number(match[1]) * UNITS_MS[(match[2] ?? 'ms').toLowerCase()] : null;
}

async function readCutOffs(strapi: Core.Strapi, users: string): Promise<CutOff[]> {
  const rows = (await strapi.db.connection(users).select('id', COLUMN)) as { id: number; [COLUMN]: string | number | null }[];
  return rows.map((row) => ({ id: Number(row.id), validAfter: Number(row[COLUMN] ?? 0) || 0 }));
}

async function writeLegacyRows(strapi: Core.Strapi, cutOffs: CutOff[]): Promise<void> {
  const table = strapi.db.metadata.get(UID.memberSession).tableName;
  const lifetime = tokenLifetimeMs(strapi);
  const now = new Date();
  // Every legacy token was issued before now, so none outlives now + the lifetime (the row is then pruned).
  const expiresAt = lifetime === null ? null : new Date(now.getTime() + lifetime);
  await strapi.db.connection.transaction(async (trx) => {
    if (strapi.db.dialect.client === 'postgres') await trx.raw('SELECT pg_advisory_xact_lock(?)', [LEGACY_ROWS_LOCK]);
    // Strapi keeps `unique` in its own checks, not in the table: rows written already are looked up.
    const written = new Set(
      (
        (await trx(table)
          .where('sid', 'like', `${legacySessionId('')}%`)
          .select('sid')) as { sid: string }[]
      ).map((row) => row.sid),
    );
    const missing = cutOffs.filter(({ id }) => !written.has(legacySessionId(id)));
    for (let start = 0; start < missing.length; start += CHUNK) {
      await trx(table).insert(
        missing.slice(start, start + CHUNK).map(({ id, validAfter }) => ({
          sid: legacySessionId(id),
          member_id: id,
          device: 'Unknown device',
          browser: 'Unknown browser',
          issued_at: new Date(validAfter),
          expires_at: expiresAt,
          last_active_at: new Date(validAfter),
          revoked_at: null,
          created_at: now,
          updated_at: now,
        })),
      );
    }
    // A row from before its member's cut-off: the cut-off refused its token, so the row is revoked.
    const cutOffOf = new Map(cutOffs.map(({ id, validAfter }) => [id, validAfter]));
    const live = (await trx(table).whereNull('revoked_at').select('id', 'member_id', 'issued_at')) as {
      id: number;
      member_id: number | string;
      issued_at: string | number | Date;
    }[];
    const stale = live.filter((row) => new Date(row.issued_at).getTime() < (cutOffOf.get(Number(row.member_id)) ?? 0)).map((row) => row.id);
    for (let start = 0; start < stale.length; start += CHUNK) {
      await trx(table)
        .whereIn('id', stale.slice(start, start + CHUNK))
        .update({ revoked_at: now, updated_at: now });
    }
  });
  strapi.log.info(`[sessions] ${cutOffs.length} member(s)' tokens from before session rows now checked against a legacy row`);
}

/** Registers the one-time move of the cut-offs into session rows, ahead of the schema sync. */
export function keepLegacyTokens(strapi: Core.Strapi): void {
  strapi.hook('strapi::content-types.beforeSync').register(async () => {
    const users = strapi.db.metadata.get(UID.user).tableName;
    // A schema builder runs every check asked of it so far: one builder per check.
    const schema = () => strapi.db.getSchemaConnection();
    if (!(await schema().hasTable(users)) || !(await schema().hasColumn(users, COLUMN))) return;
    const cutOffs = await readCutOffs(strapi, users);
    if (await schema().hasTable(strapi.db.metadata.get(UID.memberSession).tableName)) return writeLegacyRows(strapi, cutOffs);
    // A database from before the session table: the sync creates it, then the rows are written.
    strapi.hook('strapi::content-types.afterSync').register(() => writeLegacyRows(strapi, cutOffs));
  });
}
