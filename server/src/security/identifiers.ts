import crypto from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { UID } from '../content-types';
import { EMAIL_MAX_LENGTH, USERNAME_LENGTH, usernameError, usernameMessages } from '../contract/fieldRules';

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
  const cleaned = text
    .replace(/@.*$/, '')
    .replace(/[^A-Za-z0-9._-]+/g, '')
    .slice(0, room);
  return cleaned.length >= USERNAME_LENGTH.min ? cleaned : `member${cleaned}`.slice(0, room);
}

const USERNAME_INDEX = 'up_users_username_ci_unique';
const EMAIL_INDEX = 'up_users_email_ci_unique';

/** The answer to a taken identifier, wherever it is set (sign-up, profile, admin panel); the SPA shows it. */
export const TAKEN_MESSAGES = { email: 'Email is already taken', username: usernameMessages.taken } as const;

/**
 * A write the database refused because another user holds this e-mail or username (any case):
 * the loser of a race the checks before it could not see. A 400 with the same message wherever it
 * happens (sign-up, profile, admin panel, ...); social sign-in words it for its own case.
 */
export class IdentifierTakenError extends errors.ApplicationError {
  constructor(public readonly field: 'email' | 'username') {
    super(TAKEN_MESSAGES[field]);
  }
}

/** Which identifier index a driver error violated, if any (PostgreSQL 23505, SQLite UNIQUE). */
function violatedIdentifier(error: unknown): 'email' | 'username' | null {
  if (!(error instanceof Error)) return null;
  const { code, constraint } = error as Error & { code?: unknown; constraint?: unknown };
  const unique = code === '23505' || (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT'));
  if (!unique) return null;
  const names = `${typeof constraint === 'string' ? constraint : ''} ${error.message}`;
  if (names.includes(EMAIL_INDEX)) return 'email';
  if (names.includes(USERNAME_INDEX)) return 'username';
  return null;
}

/**
 * Every query Strapi runs passes its driver errors through the dialect's transformErrors (which on
 * SQLite turns any constraint into a "Not null" error, and elsewhere into a 500). A violation of an
 * identifier index becomes an IdentifierTakenError first, for every route at once.
 */
export function translateIdentifierViolations(strapi: Core.Strapi): void {
  const dialect = strapi.db.dialect as { transformErrors(error: Error): void };
  const transform = dialect.transformErrors.bind(dialect);
  dialect.transformErrors = (error: Error) => {
    const field = violatedIdentifier(error);
    if (field) throw new IdentifierTakenError(field);
    transform(error);
  };
}

function usersTable(strapi: Core.Strapi): string {
  const table = strapi.getModel(UID.user).collectionName ?? 'up_users';
  const { client, connection } = strapi.db.config.connection as { client: string; connection?: { schema?: string } };
  const schema = client === 'postgres' ? connection?.schema : undefined;
  return schema ? `${schema}.${table}` : table;
}

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
    for (
      let n = 2;
      seen.has(candidate.toLowerCase()) || rows.some((other) => other.username?.toLowerCase() === candidate.toLowerCase());
      n += 1
    ) {
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

  await strapi.db.connection.raw(`CREATE UNIQUE INDEX IF NOT EXISTS ${USERNAME_INDEX} ON ?? (lower(username))`, [usersTable(strapi)]);
}

/**
 * The unusable, unique address a duplicate gets: the original stays readable in it (nothing is lost),
 * and the reserved .invalid top-level domain (RFC 2606) never receives mail.
 */
export function parkedEmail(email: string, id: number): string {
  const at = email.lastIndexOf('@');
  const parked = `${email.slice(0, at)}+duplicate-${id}@${email.slice(at + 1)}.invalid`;
  return at > 0 && parked.length <= EMAIL_MAX_LENGTH ? parked : `duplicate-${id}@carnivo.invalid`;
}

/**
 * Start-up migration, idempotent: when several accounts share an e-mail address (any case), the
 * oldest keeps it; each younger one gets parkedEmail() and is blocked until an administrator looks
 * at it (logged, nothing deleted). Then a unique index on lower(email) makes the database refuse a
 * racing duplicate, as for usernames. Recreated each start, like the username index.
 */
export async function migrateEmails(strapi: Core.Strapi): Promise<void> {
  const table = usersTable(strapi);
  const { rows } = await strapi.db.connection
    .raw(
      `SELECT id, email FROM ?? WHERE email IS NOT NULL AND lower(email) IN
         (SELECT lower(email) FROM ?? WHERE email IS NOT NULL GROUP BY lower(email) HAVING count(*) > 1) ORDER BY id`,
      [table, table],
    )
    .then((result: unknown) => ({
      rows: (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { id: number; email: string }[],
    }));
  const kept = new Set<string>();
  for (const row of rows) {
    const id = Number(row.id);
    if (!kept.has(row.email.toLowerCase())) {
      kept.add(row.email.toLowerCase());
      continue;
    }
    let to = parkedEmail(row.email, id);
    // Someone may really own that address (a registered "+duplicate-" one): then a random one.
    if ((await strapi.db.query(UID.user).count({ where: { email: { $eqi: to } } })) > 0)
      to = `duplicate-${id}-${crypto.randomUUID()}@carnivo.invalid`;
    await strapi.db.query(UID.user).update({ where: { id }, data: { email: to, blocked: true } });
    strapi.log.warn(
      `[identifiers] user ${id}: e-mail ${JSON.stringify(row.email)} also belongs to an older account; changed to "${to}" and blocked`,
    );
  }
  await strapi.db.connection.raw(`CREATE UNIQUE INDEX IF NOT EXISTS ${EMAIL_INDEX} ON ?? (lower(email))`, [table]);
}
