import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { UID } from '../content-types';
import { sendMail } from '../mail/send';
import { queueBestEffort } from '../mail/notify-owner';
import { publicUrl } from '../public-url';
import type { MemberSession } from '../contract/sessions';
import type { DeviceSummary } from './user-agent';

/**
 * The session table behind every token (docs/security.md#signed-in-devices-and-sign-in-alerts): one
 * `member_sessions` row per issued JWT, named by the token's random `sid` claim. Revoking a row refuses
 * its token on every instance at once (the check reads the database), and a sign-in from a device
 * the member's sessions of the last 90 days do not show is told by e-mail.
 */

export const SESSION_CLAIM = 'sid';

/** The sid is opaque and unguessable: 24 random bytes. */
const SESSION_ID = /^[A-Za-z0-9_-]{16,64}$/;
export const isSessionId = (value: unknown): value is string => typeof value === 'string' && SESSION_ID.test(value);
export const newSessionId = (): string => crypto.randomBytes(24).toString('base64url');

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
 * Sessions issued while answering a request wait here until the answer is ready; the session-records
 * middleware then writes them before the token leaves the server, outside any transaction of the route.
 */
const issuedInRequest = new AsyncLocalStorage<IssuedSession[]>();

export const collectIssuedSessions = <T>(collected: IssuedSession[], work: () => Promise<T>): Promise<T> =>
  issuedInRequest.run(collected, work);

/**
 * Drops the sessions issued so far in this request: their tokens are not handed out (a password
 * log-in that must take its second step first), so no row is written and those tokens never work.
 */
export function discardIssuedSessions(): void {
  issuedInRequest.getStore()?.splice(0);
}

/** Queues the session for the request's middleware; false outside a request (the caller writes it). */
export function deferToRequest(session: IssuedSession): boolean {
  const collected = issuedInRequest.getStore();
  if (!collected) return false;
  collected.push(session);
  return true;
}

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
    where: { member_id: session.memberId },
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
  await create();
  if (earlier.length === 0 || known) return;
  await queueBestEffort(strapi, `the sign-in alert of user ${session.memberId}`, () =>
    queueSignInAlert(strapi, session.memberId, summary, issuedAt),
  );
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
    securityUrl: `${publicUrl()}/profile?tab=security`,
  });
}

/** What a request's token is checked against, read in one query: the member's cut-off and the token's session row. */
export interface TokenCheck {
  /** sessions_valid_after (ms); null when the member is gone. */
  validAfter: number | null;
  /** Whether the token's session row exists, is the member's and is not revoked (true for a token without a sid). */
  sessionLive: boolean;
  /** Whether the member's session row was signed out (revoked_at set), as opposed to unknown. */
  signedOut: boolean;
}

/**
 * Set while a request is answered: its token's session was signed out. The session-records middleware
 * then answers the 401 with "You were signed out from another device." instead of Strapi's own words.
 */
const signedOutInRequest = new AsyncLocalStorage<{ signedOut: boolean }>();

export const watchSignedOutToken = <T>(note: { signedOut: boolean }, work: () => Promise<T>): Promise<T> =>
  signedOutInRequest.run(note, work);

export function noteSignedOutToken(): void {
  const note = signedOutInRequest.getStore();
  if (note) note.signedOut = true;
}

interface CheckRow {
  valid_after: string | number | null;
  session_id: number | null;
  session_member: number | string | null;
  revoked_at: string | number | Date | null;
  last_active_at: string | number | Date | null;
}

/**
 * The check of every authenticated request, one round trip (a join of the user row and the session row).
 * Notes the session's activity at most once a minute; a failed note never refuses the request.
 */
export async function checkToken(strapi: Core.Strapi, memberId: number | string, sid: string | null): Promise<TokenCheck> {
  const users = strapi.db.metadata.get(UID.user).tableName;
  const table = strapi.db.metadata.get(UID.memberSession).tableName;
  const knex = strapi.db.connection;
  const query = knex(users).where(`${users}.id`, memberId).select(`${users}.sessions_valid_after as valid_after`);
  if (sid !== null) {
    query
      .leftJoin(table, (join) => join.on(`${table}.sid`, '=', knex.raw('?', [sid])))
      .select(
        `${table}.id as session_id`,
        `${table}.member_id as session_member`,
        `${table}.revoked_at as revoked_at`,
        `${table}.last_active_at as last_active_at`,
      );
  }
  const row = (await query.first()) as CheckRow | undefined;
  if (!row) return { validAfter: null, sessionLive: false, signedOut: false };
  const validAfter = Number(row.valid_after ?? 0) || 0;
  if (sid === null) return { validAfter, sessionLive: true, signedOut: false };
  const own = row.session_id !== null && String(row.session_member) === String(memberId);
  const live = own && row.revoked_at === null;
  if (live && Date.now() - (time(row.last_active_at) ?? 0) >= LAST_ACTIVE_STEP_MS) await noteActivity(strapi, row.session_id!);
  return { validAfter, sessionLive: live, signedOut: own && row.revoked_at !== null };
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

/** The member's live sessions: not revoked, not expired, not issued before their last "log out everywhere". */
export async function listSessions(
  strapi: Core.Strapi,
  memberId: number,
  validAfter: number,
  currentSid: string | null,
): Promise<MemberSession[]> {
  const now = Date.now();
  const rows = (await sessions(strapi).findMany({
    where: {
      member_id: memberId,
      revoked_at: { $null: true },
      issued_at: { $gte: new Date(validAfter) },
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

/** Marks every session row of the member revoked (the tokens are refused anyway by sessions_valid_after). */
export async function revokeAllSessionRows(strapi: Core.Strapi, memberId: number | string): Promise<void> {
  await sessions(strapi).updateMany({ where: { member_id: memberId, revoked_at: { $null: true } }, data: { revoked_at: new Date() } });
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
