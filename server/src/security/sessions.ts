import type { Core } from '@strapi/strapi';
import { UID } from '../content-types';
import {
  SESSION_CLAIM,
  deferToRequest,
  isSessionId,
  newSessionId,
  recordSession,
  revokeAllSessionRows,
  checkToken,
  noteSignedOutToken,
  type IssuedSession,
} from './member-sessions';
import { summarizeUserAgent } from './user-agent';
import { removeRecentPasskeys } from './step-up';

/**
 * Session revocation for users-permissions' legacy JWTs (the SPA keeps only `jwt` and `userId`).
 *
 * Every token carries the millisecond it was issued (`iat_ms`); every user row carries
 * `sessions_valid_after` (private). A token issued before that instant is refused wherever it is
 * presented, on every instance, because the check reads the database. The instant moves forward on
 * any password change (change-password, reset by code, the admin panel: a database lifecycle sees the
 * new hash) and on "Log out of all devices". A deleted account's tokens die with its row.
 *
 * Every token issued since the session table (./member-sessions.ts) also carries a `sid`: its row must
 * exist, be the member's and not be revoked (a password or e-mail change revokes the rows too). Tokens from before it (no `sid`) keep working until they
 * expire, a password or e-mail change, or "Log out of all devices".
 */

export const ISSUED_AT_CLAIM = 'iat_ms';

interface TokenPayload {
  id?: number | string;
  iat?: number;
  [ISSUED_AT_CLAIM]?: number;
  exp?: number;
  [claim: string]: unknown;
}

interface JwtService {
  getToken(ctx: unknown): Promise<TokenPayload | null> | TokenPayload | null;
  issue(payload: Record<string, unknown>, options?: Record<string, unknown>): string | Promise<string>;
  verify(token: string): Promise<TokenPayload>;
}

/** When the token was issued, in ms: its own claim, or the standard seconds for older tokens. */
const issuedAtMs = (payload: TokenPayload): number =>
  typeof payload[ISSUED_AT_CLAIM] === 'number' ? payload[ISSUED_AT_CLAIM]! : (payload.iat ?? 0) * 1000;

export async function sessionsValidAfter(strapi: Core.Strapi, userId: number | string): Promise<number | null> {
  const row = (await strapi.db.query(UID.user).findOne({ where: { id: userId }, select: ['id', 'sessions_valid_after'] })) as {
    sessions_valid_after?: string | number | null;
  } | null;
  if (!row) return null;
  return Number(row.sessions_valid_after ?? 0) || 0;
}

/**
 * "Log out of all devices": refuses, from now on, every token of the user issued before this call,
 * and removes the passkeys added lately (a stolen session's way back in, src/security/step-up.ts).
 */
export async function revokeSessions(strapi: Core.Strapi, userId: number | string): Promise<void> {
  await strapi.db.transaction(async () => {
    await strapi.db.query(UID.user).update({ where: { id: userId }, data: { sessions_valid_after: Date.now() } });
    await revokeAllSessionRows(strapi, userId);
    await removeRecentPasskeys(strapi, userId, 'logout-all');
  });
}

/** The claims of a JWT, read without checking it: only for a token the auth strategy has already verified. */
function claimsOf(token: string): TokenPayload | null {
  try {
    const claims: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return typeof claims === 'object' && claims !== null ? (claims as TokenPayload) : null;
  } catch {
    return null;
  }
}

/** The session id of the (already verified) bearer token of the request, or null for a token without one. */
export function currentSessionId(authorization: string | undefined): string | null {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  const sid = token ? claimsOf(token)?.[SESSION_CLAIM] : undefined;
  return isSessionId(sid) ? sid : null;
}

type JwtServiceFactory = ((deps: { strapi: Core.Strapi }) => JwtService) & { plainFactory?: (deps: { strapi: Core.Strapi }) => JwtService };

/**
 * users-permissions' jwt service, with the issue instant stamped in and checked on every request.
 * Wraps the plugin's own factory once: a second Strapi in one process (tests) extends the same cached
 * plugin object again, and a wrapper around a wrapper would get a pending session back from `issue`.
 */
export function withSessionRevocation(createJwtService: JwtServiceFactory): JwtServiceFactory {
  const plainFactory = createJwtService.plainFactory ?? createJwtService;
  const factory = ({ strapi }: { strapi: Core.Strapi }): JwtService => {
    const base = plainFactory({ strapi });
    return {
      ...base,
      // Synchronous like the plugin's own: its controllers put the result straight into the answer.
      issue(payload, options) {
        const issuedAt = Date.now();
        const sid = newSessionId();
        const token = base.issue({ ...payload, [ISSUED_AT_CLAIM]: issuedAt, [SESSION_CLAIM]: sid }, options);
        if (typeof token !== 'string') throw new Error('sessions: only legacy-support JWTs are issued here');
        const exp = claimsOf(token)?.exp;
        const session: IssuedSession = {
          sid,
          memberId: Number(payload.id),
          issuedAt,
          expiresAt: typeof exp === 'number' ? exp * 1000 : null,
        };
        // In a request the row is written before the answer leaves (middlewares/session-records.ts);
        // elsewhere (a script, a test) the caller awaits it.
        if (deferToRequest(session)) return token;
        return recordSession(strapi, session, summarizeUserAgent(undefined)).then(() => token);
      },
      async verify(token) {
        const payload = await base.verify(token);
        if (payload?.id !== undefined) {
          const sid = payload[SESSION_CLAIM];
          if (sid !== undefined && !isSessionId(sid)) throw new Error('Invalid token.');
          // One query: the member's cut-off and the token's session row.
          const { validAfter, sessionLive, signedOut } = await checkToken(strapi, payload.id, sid ?? null);
          // A missing user is left to the strategy (it answers "Invalid credentials").
          if (validAfter !== null && (issuedAtMs(payload) < validAfter || !sessionLive)) {
            // Signed out from a device list or "Log out of all devices": the 401 says so (middlewares/session-records.ts).
            if (signedOut) noteSignedOutToken();
            throw new Error('Invalid token.');
          }
        }
        return payload;
      },
    };
  };
  return Object.assign(factory, { plainFactory });
}

/**
 * Whenever a user's password hash or e-mail address changes, whatever changed it (change-password,
 * reset, e-mail change link, admin panel): every earlier token is revoked (sessions_valid_after moves)
 * and its session row marked revoked, so the other devices are told they were signed out, as after
 * "Log out of all devices" (change-password then issues the caller a new session, as before); a
 * reset code already mailed stops working (it was sent to the old address, or for the old password),
 * and so does a pending e-mail change (asked for by whoever knew the old password). A new password
 * also removes the passkeys added lately (src/security/step-up.ts).
 */
export function revokeSessionsOnCredentialChange(strapi: Core.Strapi): void {
  strapi.db.lifecycles.subscribe({
    models: [UID.user],
    async beforeUpdate(event: CredentialEvent & { params: { where?: Record<string, unknown> } }) {
      const data = event.params.data;
      if (!data) return;
      const passwordChanges = typeof data.password === 'string' && data.password !== '';
      if (passwordChanges || (typeof data.email === 'string' && (await emailChanges(strapi, event.params.where, data.email)))) {
        event.state.credentialsChanged = true;
        data.sessions_valid_after = Date.now();
        data.resetPasswordToken = null;
        data.resetPasswordTokenExpiresAt = null;
        data.pending_email = null;
        data.pending_email_expires_at = null;
        data.email_change_token = null;
        data.email_change_cancel_token = null;
      }
    },
    async afterUpdate(event: CredentialEvent & { result?: { id?: number } | null }) {
      const memberId = event.result?.id;
      if (typeof memberId !== 'number') return;
      if (event.state.credentialsChanged) await revokeAllSessionRows(strapi, memberId);
      const password = event.params.data?.password;
      if (typeof password === 'string' && password !== '') await removeRecentPasskeys(strapi, memberId, 'password');
    },
  });
}

/** A user update's lifecycle event; `state` is shared by this subscriber's before and after hooks. */
interface CredentialEvent {
  params: { data?: Record<string, unknown> };
  state: { credentialsChanged?: boolean };
}

/** Whether a row the update touches holds another address (the profile form sends the e-mail unchanged too). */
async function emailChanges(strapi: Core.Strapi, where: Record<string, unknown> | undefined, email: string): Promise<boolean> {
  if (!where) return true;
  const rows = (await strapi.db.query(UID.user).findMany({ where, select: ['id', 'email'] })) as { email?: string | null }[];
  return rows.some((row) => (row.email ?? '').toLowerCase() !== email.toLowerCase());
}
