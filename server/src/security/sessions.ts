import type { Core } from '@strapi/strapi';
import { UID } from '../content-types';

/**
 * Session revocation for users-permissions' legacy JWTs (the SPA keeps only `jwt` and `userId`).
 *
 * Every token carries the millisecond it was issued (`iat_ms`); every user row carries
 * `sessions_valid_after` (private). A token issued before that instant is refused wherever it is
 * presented, on every instance, because the check reads the database. The instant moves forward on
 * any password change (change-password, reset by code, the admin panel: a database lifecycle sees the
 * new hash) and on "Log out of all devices". A deleted account's tokens die with its row.
 */

export const ISSUED_AT_CLAIM = 'iat_ms';

interface TokenPayload {
  id?: number | string;
  iat?: number;
  [ISSUED_AT_CLAIM]?: number;
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

/** Refuses, from now on, every token of the user issued before this call. */
export async function revokeSessions(strapi: Core.Strapi, userId: number | string): Promise<void> {
  await strapi.db.query(UID.user).update({ where: { id: userId }, data: { sessions_valid_after: Date.now() } });
}

/** users-permissions' jwt service, with the issue instant stamped in and checked on every request. */
export function withSessionRevocation(createJwtService: (deps: { strapi: Core.Strapi }) => JwtService) {
  return ({ strapi }: { strapi: Core.Strapi }): JwtService => {
    const base = createJwtService({ strapi });
    return {
      ...base,
      issue(payload, options) {
        return base.issue({ ...payload, [ISSUED_AT_CLAIM]: Date.now() }, options);
      },
      async verify(token) {
        const payload = await base.verify(token);
        if (payload?.id !== undefined) {
          const validAfter = await sessionsValidAfter(strapi, payload.id);
          // A missing user is left to the strategy (it answers "Invalid credentials").
          if (validAfter !== null && issuedAtMs(payload) < validAfter) throw new Error('Invalid token.');
        }
        return payload;
      },
    };
  };
}

/**
 * Whenever a user's password hash or e-mail address changes, whatever changed it (change-password,
 * reset, profile, admin panel): every earlier token is revoked (sessions_valid_after moves), and a
 * reset code already mailed stops working (it was sent to the old address, or for the old password).
 */
export function revokeSessionsOnCredentialChange(strapi: Core.Strapi): void {
  strapi.db.lifecycles.subscribe({
    models: [UID.user],
    async beforeUpdate(event: { params: { data?: Record<string, unknown>; where?: Record<string, unknown> } }) {
      const data = event.params.data;
      if (!data) return;
      const passwordChanges = typeof data.password === 'string' && data.password !== '';
      if (passwordChanges || (typeof data.email === 'string' && (await emailChanges(strapi, event.params.where, data.email)))) {
        data.sessions_valid_after = Date.now();
        data.resetPasswordToken = null;
        data.resetPasswordTokenExpiresAt = null;
      }
    },
  });
}

/** Whether a row the update touches holds another address (the profile form sends the e-mail unchanged too). */
async function emailChanges(strapi: Core.Strapi, where: Record<string, unknown> | undefined, email: string): Promise<boolean> {
  if (!where) return true;
  const rows = (await strapi.db.query(UID.user).findMany({ where, select: ['id', 'email'] })) as { email?: string | null }[];
  return rows.some((row) => (row.email ?? '').toLowerCase() !== email.toLowerCase());
}
