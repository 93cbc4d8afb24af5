import crypto from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { UID } from '../../content-types';
import { sendMail } from '../../mail/send';
import { queueBestEffort } from '../../mail/notify-owner';
import { profileTabUrl } from '../../public-url';
import { sessionMessages, type MemberSession } from '../../contract/sessions';
import type { DeviceSummary } from '../user-agent';
import { withSessionRowsLock } from './row-lock';
import { currentCredentialStamp } from './credentials';

/**
 * The session rows (docs/security.md#revocable-sessions): one `member_sessions` row per issued token, named by
 * the token's random `sid` claim. The row is the only thing that revokes: a revoked row, a missing row
 * or another member's row refuses its token on every instance at once (the check reads the database).
 * A sign-in from a device the member's sessions of the last 90 days do not show is told by e-mail.
 *
 * Tokens from before the session rows carry no `sid`: they are checked against the member's one legacy
 * row (`legacy.<member id>`, written once from the old `sessions_valid_after` cut-off by
 * ./legacy-tokens.ts), which is never listed and is revoked like any other.
 */

/** The sid is opaque and unguessable: 24 random bytes. */
const SESSION_ID = /^[A-Za-z0-9_-]{16,64}$/;
export const isSessionId = (value: unknown): value is string => typeof value === 'string' && SESSION_ID.test(value);
export const newSessionId = (): string => crypto.randomBytes(24).toString('base64url');

const LEGACY_PREFIX = 'legacy.';
/** The one legacy row of a member (their tokens without a sid); never a valid sid (it holds a dot). */
export const legacySessionId = (memberId: number | string): string => `${LEGACY_PREFIX}${memberId}`;
const notLegacy = { $not: { sid: { $startsWith: LEGACY_PREFIX } } };

/** last_active_at is written at most this often per session: one cheap update a minute, not one a request. */
export const LAST_ACTIVE_STEP_MS = 60_000;
/** A device seen among the member's sessions of this period is known: no alert. */
export const KNOWN_DEVICE_DAYS = 90;
const DAY_MS = 86_400_000;

export interface IssuedSession {
  sid: string;
  memberId: number;
  issuedAt: number;
  /** The token's own expiry (its `exp`), when it has one. */
  expiresAt: number | null;
  /** For a session won with a password: the credential stamp the log-in checked (./credentials.ts). */
  credentials?: string | null;
  /** For a session won with a passkey: that passkey's id. */
  passkeyId?: number;
}

/**
 * A new session refused at its row, so its token is never handed out: a revocation came after its signing
 * ('signed-out'), or the password (or address) it was won with was replaced, or its passkey removed,
 * meanwhile ('credentials-changed').
 * Not Strapi's UnauthorizedError: on the content API that answers a bare "Unauthorized" (./tokens.ts answers it).
 */
export class SessionRefused extends Error {
  constructor(readonly why: 'signed-out' | 'credentials-changed') {
    super(why === 'signed-out' ? sessionMessages.signedOutElsewhere : 'The credential this session was won with was replaced');
    this.name = 'SessionRefused';
  }
}

interface SessionRow {
  id: number;
  sid: string;
  member_id: number;
  device: string;
  browser: string;
  issued_at: string | Date;
  expires_at: string | Date | null;
  last_active_at: string | Date;
  revoked_at: string | Date | null;
}

const sessions = (strapi: Core.Strapi) => strapi.db.query(UID.memberSession);
const time = (value: string | number | Date | null): number | null => (value === null ? null : new Date(value).getTime());

/**
 * Writes the session's row and, from a device the member has not used in 90 days (and not on their
 * very first session), queues the sign-in alert once the row is written. The alert is best-effort
 * (queueBestEffort): one that cannot be queued (a stored address the mail rule now refuses) is
 * logged and never fails the log-in.
 */
export async function recordSession(strapi: Core.Strapi, session: IssuedSession, summary: DeviceSummary): Promise<void> {
  // One read of what the member used lately (the newest first; a first session finds none).
  const since = session.issuedAt - KNOWN_DEVICE_DAYS * DAY_MS;
  const earlier = (await sessions(strapi).findMany({
    where: { member_id: session.memberId, ...notLegacy },
    select: ['device', 'browser', 'issued_at'],
    orderBy: { issued_at: 'desc' },
    limit: 1000,
  })) as Pick<SessionRow, 'device' | 'browser' | 'issued_at'>[];
  const known = earlier.some(
    (row) => row.device === summary.device && row.browser === summary.browser && (time(row.issued_at) ?? 0) >= since,
  );
  const issuedAt = new Date(session.issuedAt);
  // createMany: one INSERT, without create's read-back of the row.
  const create = () =>
    sessions(strapi).createMany({
      data: [
        {
          sid: session.sid,
          member_id: session.memberId,
          device: summary.device,
          browser: summary.browser,
          issued_at: issuedAt,
          expires_at: session.expiresAt === null ? null : new Date(session.expiresAt),
          last_active_at: issuedAt,
          revoked_at: null,
          // Every session starts with a log-in: a fresh proof of presence (src/security/step-up.ts).
          reauthenticated_at: issuedAt,
        },
      ],
    });
  // A revocation between signing and this row (a password change, "Log out of all devices") did not see the
  // row: the session is ended here, and its token is never handed out. Under the lock a revocation takes
  // too (with the passkeys it removes), so one still in flight is waited for rather than missed. The row is
  // written before the checks: a change that the checks do not see yet comes after the row, and its
  // revocation ends it.
  await withSessionRowsLock(strapi, session.memberId, async () => {
    await create();
    const refusal = !(await proofStands(strapi, session))
      ? 'credentials-changed'
      : (await revokedSince(strapi, session.memberId, issuedAt))
        ? 'signed-out'
        : null;
    if (refusal === null) return;
    // On PostgreSQL the lock's transaction rolls the row back as well; on SQLite this is what takes it.
    await sessions(strapi).deleteMany({ where: { sid: session.sid } });
    throw new SessionRefused(refusal);
  });
  if (earlier.length === 0 || known) return;
  await queueBestEffort(strapi, `the sign-in alert of user ${session.memberId}`, () =>
    queueSignInAlert(strapi, session.memberId, summary, issuedAt),
  );
}

/** Whether what the session was won with is still the member's: the same password and address, the same passkey. */
async function proofStands(strapi: Core.Strapi, session: IssuedSession): Promise<boolean> {
  if (session.credentials !== undefined && (await currentCredentialStamp(strapi, session.memberId)) !== session.credentials) return false;
  if (session.passkeyId === undefined) return true;
  const passkey = await strapi.db
    .query(UID.passkey)
    .findOne({ where: { id: session.passkeyId, user: { id: session.memberId } }, select: ['id'] });
  return passkey !== null;
}

async function queueSignInAlert(strapi: Core.Strapi, memberId: number, summary: DeviceSummary, at: Date): Promise<void> {
  const member = (await strapi.db.query(UID.user).findOne({ where: { id: memberId }, select: ['email', 'username'] })) as {
    email?: string | null;
    username?: string | null;
  } | null;
  if (!member?.email) return;
  await sendMail(strapi, 'sign-in-alert', member.email, {
    username: member.username ?? null,
    device: summary,
    at,
    securityUrl: profileTabUrl('security'),
  });
}

/** A token's standing: live; refused (unknown, another member's, or issued before its legacy cut-off); signed out (its own row revoked). */
export type SessionCheck = 'live' | 'refused' | 'signed-out' | 'no-member';

interface CheckRow {
  session_id: number | null;
  session_member: number | string | null;
  issued_at: string | number | Date | null;
  revoked_at: string | number | Date | null;
  last_active_at: string | number | Date | null;
}

/**
 * The check of every authenticated request, one round trip (the user row joined with the token's
 * session row: its own, or the member's legacy row for a token without a sid). A member who is gone is
 * left to the auth strategy ("Invalid credentials"). Notes the session's activity at most once a
 * minute; a failed note never refuses the request.
 */
export async function checkSession(
  strapi: Core.Strapi,
  memberId: number | string,
  sid: string | null,
  tokenIssuedAt: number,
): Promise<SessionCheck> {
  const users = strapi.db.metadata.get(UID.user).tableName;
  const table = strapi.db.metadata.get(UID.memberSession).tableName;
  const knex = strapi.db.connection;
  const row = (await knex(users)
    .where(`${users}.id`, memberId)
    .leftJoin(table, (join) => join.on(`${table}.sid`, '=', knex.raw('?', [sid ?? legacySessionId(memberId)])))
    .select(
      `${table}.id as session_id`,
      `${table}.member_id as session_member`,
      `${table}.issued_at as issued_at`,
      `${table}.revoked_at as revoked_at`,
      `${table}.last_active_at as last_active_at`,
    )
    .first()) as CheckRow | undefined;
  if (!row) return 'no-member';
  const own = row.session_id !== null && String(row.session_member) === String(memberId);
  if (!own) return 'refused';
  // A legacy token is refused quietly, as before the rows: it never had a device of its own to sign out.
  if (sid === null) return row.revoked_at === null && tokenIssuedAt >= (time(row.issued_at) ?? 0) ? 'live' : 'refused';
  if (row.revoked_at !== null) return 'signed-out';
  if (Date.now() - (time(row.last_active_at) ?? 0) >= LAST_ACTIVE_STEP_MS) await noteActivity(strapi, row.session_id!);
  return 'live';
}

async function noteActivity(strapi: Core.Strapi, rowId: number): Promise<void> {
  const now = Date.now();
  await sessions(strapi)
    .updateMany({
      where: { id: rowId, last_active_at: { $lt: new Date(now - LAST_ACTIVE_STEP_MS) } },
      data: { last_active_at: new Date(now) },
    })
    .catch((error: unknown) =>
      strapi.log.warn(`[sessions] could not note activity: ${error instanceof Error ? error.message : String(error)}`),
    );
}

/** The member's live sessions (not revoked, not expired), the legacy row aside. */
export async function listSessions(strapi: Core.Strapi, memberId: number, currentSid: string | null): Promise<MemberSession[]> {
  const now = Date.now();
  const rows = (await sessions(strapi).findMany({
    where: {
      member_id: memberId,
      revoked_at: { $null: true },
      ...notLegacy,
      $or: [{ expires_at: { $null: true } }, { expires_at: { $gt: new Date(now) } }],
    },
    orderBy: [{ last_active_at: 'desc' }, { id: 'desc' }],
    limit: 200,
  })) as SessionRow[];
  return rows.map((row) => ({
    id: row.sid,
    device: row.device,
    browser: row.browser,
    createdAt: new Date(row.issued_at).toISOString(),
    lastActiveAt: new Date(row.last_active_at).toISOString(),
    current: row.sid === currentSid,
  }));
}

/** Revokes one live session of the member; false when the member has no such session (someone else's included). */
export async function revokeSession(strapi: Core.Strapi, memberId: number, sid: string): Promise<boolean> {
  if (!isSessionId(sid)) return false;
  const { count } = await sessions(strapi).updateMany({
    where: { sid, member_id: memberId, revoked_at: { $null: true } },
    data: { revoked_at: new Date() },
  });
  return count > 0;
}

/**
 * Whether all the member's sessions were revoked after the instant (a token or ticket from before it must not
 * outlive it). One device signed out meanwhile (revokeSession) is not such a revocation: it ends its own row only.
 */
export async function revokedSince(strapi: Core.Strapi, memberId: number | string, since: Date): Promise<boolean> {
  return (await sessions(strapi).count({ where: { member_id: memberId, revoked_everywhere: true, revoked_at: { $gt: since } } })) > 0;
}

/** Marks every session row of the member revoked, the legacy row included: all their tokens are refused. */
export async function revokeAllSessionRows(strapi: Core.Strapi, memberId: number | string): Promise<void> {
  await withSessionRowsLock(strapi, memberId, () =>
    sessions(strapi).updateMany({
      where: { member_id: memberId, revoked_at: { $null: true } },
      data: { revoked_at: new Date(), revoked_everywhere: true },
    }),
  );
}

/**
 * A deleted account's session rows go with its user row, in the deletion's transaction (a lifecycle
 * rather than an account-deletion clean-up: those run first and are kept when a later one fails).
 */
export function deleteSessionsWithAccount(strapi: Core.Strapi): void {
  strapi.db.lifecycles.subscribe({
    models: [UID.user],
    async afterDelete(event: { result?: { id?: number } | null }) {
      if (typeof event.result?.id === 'number') await sessions(strapi).deleteMany({ where: { member_id: event.result.id } });
    },
  });
}

/**
 * Session rows outside the recognition window (KNOWN_DEVICE_DAYS from issue) whose token no longer
 * works (revoked, or past its expiry) go: nothing reads them any more. A live session keeps its row
 * however old (its token needs it). Run at start-up and daily (startSessionPruning); returns the count.
 */
export async function pruneSessions(strapi: Core.Strapi, now = Date.now()): Promise<number> {
  const { count } = await sessions(strapi).deleteMany({
    where: {
      issued_at: { $lt: new Date(now - KNOWN_DEVICE_DAYS * DAY_MS) },
      $or: [{ revoked_at: { $notNull: true } }, { expires_at: { $lt: new Date(now) } }],
    },
  });
  if (count > 0) strapi.log.info(`[sessions] pruned ${count} session row(s) older than ${KNOWN_DEVICE_DAYS} days that no longer work`);
  return count;
}

/** pruneSessions now and then daily, on every instance (the delete is idempotent); returns the stop. */
export function startSessionPruning(strapi: Core.Strapi): () => void {
  const run = () =>
    void pruneSessions(strapi).catch((error: unknown) =>
      strapi.log.warn(`[sessions] pruning old session rows failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  run();
  const timer = setInterval(run, DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
