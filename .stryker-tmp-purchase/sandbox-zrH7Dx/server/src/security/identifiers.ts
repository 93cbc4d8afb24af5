// @ts-nocheck
import type { Core } from '@strapi/strapi';
import { UID } from '../content-types';
import { USERNAME_LENGTH, usernameError } from '../contract/fieldRules';

/**
 * Unambiguous log-in identifiers: a username never looks like an e-mail address, and two usernames
 * never differ only by case. So an identifier with "@" can only be an e-mail and any other only a
 * username, and nobody can squat another member's address (or a later member's) as a username.
 */

/** Whether another user holds this username, whatever its case. */
export async function usernameTaken(strapi: Core.Strapi, username: string, exceptUserId?: number | string): Promise<boolean> {
  const where: Record<string, unknown> = { username: { $eqi: username } };
  if (exceptUserId !== undefined) where.id = { $ne: exceptUserId };
  return (await strapi.db.query(UID.user).count({ where })) > 0;
}

/** The user a log-in identifier names: e-mail when it has "@", username (any case) otherwise. */
export function identifierWhere(identifier: string): Record<string, unknown> {
  return identifier.includes('@') ? { email: identifier.toLowerCase() } : { username: { $eqi: identifier } };
}

/** A valid username from any text (an e-mail's local part, an old username), at most `room` long. */
export function usernameBase(text: string, room: number = USERNAME_LENGTH.max): string {
  const cleaned = text.replace(/@.*$/, '').replace(/[^A-Za-z0-9._-]+/g, '').slice(0, room);
  return cleaned.length >= USERNAME_LENGTH.min ? cleaned : `member${cleaned}`.slice(0, room);
}

const INDEX_NAME = 'up_users_username_ci_unique';

/**
 * Start-up migration, idempotent: renames the usernames that break the rules (an "@", other
 * characters, over 30) or that collide with an older one when case is ignored, to
 * `<cleaned>-<id>`, then puts a unique index on lower(username) so the database refuses a racing
 * duplicate. Strapi's schema sync may drop an index it does not know; this recreates it each start.
 */
export async function migrateUsernames(strapi: Core.Strapi): Promise<void> {
  const rows = (await strapi.db.query(UID.user).findMany({ select: ['id', 'username'], orderBy: { id: 'asc' } })) as {
    id: number;
    username: string | null;
  }[];
  const seen = new Set<string>();
  const renames: { id: number; from: string | null; to: string }[] = [];
  for (const row of rows) {
    const current = row.username ?? '';
    if (!usernameError(current) && !seen.has(current.toLowerCase())) {
      seen.add(current.toLowerCase());
      continue;
    }
    const suffix = `-${row.id}`;
    let candidate = `${usernameBase(current, USERNAME_LENGTH.max - suffix.length)}${suffix}`;
    for (let n = 2; seen.has(candidate.toLowerCase()) || rows.some((other) => other.username?.toLowerCase() === candidate.toLowerCase()); n += 1) {
      const longer = `-${row.id}-${n}`;
      candidate = `${usernameBase(current, USERNAME_LENGTH.max - longer.length)}${longer}`;
    }
    seen.add(candidate.toLowerCase());
    renames.push({ id: row.id, from: row.username, to: candidate });
  }
  for (const { id, from, to } of renames) {
    await strapi.db.query(UID.user).update({ where: { id }, data: { username: to } });
    strapi.log.warn(`[identifiers] user ${id}: username ${JSON.stringify(from)} broke the username rules; renamed to "${to}"`);
  }

  const table = strapi.getModel(UID.user).collectionName ?? 'up_users';
  const { client, connection } = strapi.db.config.connection as { client: string; connection?: { schema?: string } };
  const schema = client === 'postgres' ? connection?.schema : undefined;
  await strapi.db.connection.raw(`CREATE UNIQUE INDEX IF NOT EXISTS ${INDEX_NAME} ON ?? (lower(username))`, [
    schema ? `${schema}.${table}` : table,
  ]);
}
