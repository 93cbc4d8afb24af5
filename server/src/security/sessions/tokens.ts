import type { Core } from '@strapi/strapi';
import { SessionRefused, checkSession, isSessionId, newSessionId, recordSession, type IssuedSession } from './records';
import { summarizeUserAgent } from '../user-agent';
import { sendError } from '../../payments/http';
import { SIGNED_OUT_REASON, sessionMessages } from '../../contract/sessions';

/**
 * Signing and checking tokens (docs/security.md#revocable-sessions). users-permissions' jwt service stays the
 * signer, wrapped here; nothing else in the app signs or verifies a token (the import-rule test).
 *
 * Every token carries a random `sid` and the millisecond it was issued (`iat_ms`). It works once its
 * row is written (./records.ts) and until that row is revoked: a token whose row was never written
 * (a log-in that must take its second step first) never works.
 */

const SESSION_CLAIM = 'sid';
const ISSUED_AT_CLAIM = 'iat_ms';

interface TokenPayload {
  id?: number | string;
  iat?: number;
  exp?: number;
  [claim: string]: unknown;
}

interface JwtService {
  getToken(ctx: unknown): Promise<TokenPayload | null> | TokenPayload | null;
  issue(payload: Record<string, unknown>, options?: Record<string, unknown>): string | Promise<string>;
  verify(token: string): Promise<TokenPayload>;
}

/** What the signer needs of a request: its headers, and its state for the auth strategy's findings. */
interface TokenContext {
  get(header: string): string;
  state: { session?: { id?: unknown }; signedOutSession?: boolean };
  request?: { header?: { authorization?: string } };
}

type JwtServiceFactory = (deps: { strapi: Core.Strapi }) => JwtService;

/** The plugin's own service, unwrapped, kept on the wrapped one (for signing and the signature check). */
const signer = (strapi: Core.Strapi): JwtService => (strapi.plugin('users-permissions').service('jwt') as { plain: JwtService }).plain;

/** When the token was issued, in ms: its own claim, or the standard seconds for older tokens. */
const issuedAtMs = (payload: TokenPayload): number =>
  typeof payload[ISSUED_AT_CLAIM] === 'number' ? payload[ISSUED_AT_CLAIM] : (payload.iat ?? 0) * 1000;

/** The claims of a token this server has just signed (never one a client sent: those go through verify). */
function claimsOf(token: string): TokenPayload {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as TokenPayload;
}

/** Signs a token with a new sid; it works only once recordToken writes its row. */
function signToken(strapi: Core.Strapi, payload: Record<string, unknown>, options?: Record<string, unknown>): string {
  const token = signer(strapi).issue({ ...payload, [ISSUED_AT_CLAIM]: Date.now(), [SESSION_CLAIM]: newSessionId() }, options);
  if (typeof token !== 'string') throw new Error('sessions: only legacy-support JWTs are issued here');
  return token;
}

/**
 * What a new session was won with: for a password (or its second step), the stamp the log-in checked; for
 * a passkey, which one (still there when the row is written, or the session is refused).
 */
export interface SessionProof {
  credentials?: string | null;
  passkeyId?: number;
}

/** Writes the row of a token signed here, with the device of the request's User-Agent. */
async function recordToken(strapi: Core.Strapi, token: string, userAgent: string | undefined, proof: SessionProof): Promise<void> {
  const claims = claimsOf(token);
  const session: IssuedSession = {
    sid: String(claims[SESSION_CLAIM]),
    memberId: Number(claims.id),
    issuedAt: issuedAtMs(claims),
    expiresAt: typeof claims.exp === 'number' ? claims.exp * 1000 : null,
    ...(proof.credentials !== undefined ? { credentials: proof.credentials } : {}),
    ...(proof.passkeyId !== undefined ? { passkeyId: proof.passkeyId } : {}),
  };
  await recordSession(strapi, session, summarizeUserAgent(userAgent));
}

/**
 * A new session for the member: the token, once its row is written (a failed write throws, and the
 * token is never handed out). `ctx` gives the device; without it (a script) the device is unknown.
 */
export async function issueSession(
  strapi: Core.Strapi,
  memberId: number,
  ctx?: Pick<TokenContext, 'get'>,
  proof: SessionProof = {},
): Promise<string> {
  const token = signToken(strapi, { id: memberId });
  await recordToken(strapi, token, ctx?.get('User-Agent'), proof);
  return token;
}

/**
 * Records the session of an answer `{ jwt, user }` that users-permissions' own controllers (or ours
 * inside them, ./pendingSession) signed: called once the answer is final, so a session replaced by the
 * second log-in step is never recorded and its token never works.
 */
export async function recordAnsweredSession(
  strapi: Core.Strapi,
  ctx: Pick<TokenContext, 'get'> & { body?: unknown },
  proof: SessionProof = {},
): Promise<void> {
  const body = ctx.body;
  if (typeof body !== 'object' || body === null || !('jwt' in body) || typeof body.jwt !== 'string') return;
  await recordToken(strapi, body.jwt, ctx.get('User-Agent'), proof);
}

/**
 * The answer to a session refused at its row (records.ts SessionRefused), in words the member can act on:
 * signed out meanwhile, or, for a password that was replaced meanwhile, `credentialsChanged` (the log-in's
 * "Invalid identifier or password", or the second step's "log in again"). False for any other error, which
 * the caller rethrows. A road that proves no credential of its own leaves `credentialsChanged` out.
 */
export function answerRefusedSession(ctx: Parameters<typeof sendError>[0], error: unknown, credentialsChanged?: RefusalAnswer): boolean {
  if (!(error instanceof SessionRefused)) return false;
  if (error.why === 'credentials-changed' && credentialsChanged) {
    sendError(ctx, credentialsChanged.status, credentialsChanged.name, credentialsChanged.message);
  } else {
    sendError(ctx, 401, 'UnauthorizedError', sessionMessages.signedOutElsewhere, { reason: SIGNED_OUT_REASON });
  }
  return true;
}

/** A refusal's answer (answerRefusedSession's `credentialsChanged`). */
export type RefusalAnswer = { status: number; name: string; message: string };

/**
 * A token for a sign-in answer of the auth controller (extensions/users-permissions: social sign-in),
 * which passes the second-step gate and then recordAnsweredSession, like the plugin's own answers.
 */
export const pendingSession = (strapi: Core.Strapi, memberId: number): string => signToken(strapi, { id: memberId });

/** The sid of the request's (already verified) token, or null for a token from before sessions. */
export function currentSessionId(ctx: Pick<TokenContext, 'state'>): string | null {
  const sid = ctx.state.session?.id;
  return isSessionId(sid) ? sid : null;
}

/**
 * The signature and the token's session row. A token whose own row was revoked is noted on the
 * request (`signedOutSession`): middlewares/signed-out-sessions.ts tells the client so.
 */
async function checkedToken(strapi: Core.Strapi, token: string, ctx?: TokenContext): Promise<TokenPayload> {
  const payload = await signer(strapi).verify(token);
  if (payload?.id === undefined) return payload;
  const sid = payload[SESSION_CLAIM];
  if (sid !== undefined && !isSessionId(sid)) throw new Error('Invalid token.');
  const verdict = await checkSession(strapi, payload.id, sid ?? null, issuedAtMs(payload));
  if (verdict === 'signed-out' && ctx) ctx.state.signedOutSession = true;
  if (verdict === 'refused' || verdict === 'signed-out') throw new Error('Invalid token.');
  // `sessionId`: the strategy puts it on ctx.state.session (currentSessionId). A gone member is the strategy's to refuse.
  return sid === undefined ? payload : { ...payload, sessionId: sid };
}

/**
 * users-permissions' jwt service, with the sid and issue instant stamped in and the session row checked
 * on every request. The plugin's own `issue` (log-in, sign-up, change-password answers) signs a token
 * whose row recordAnsweredSession writes. Given the plugin's own factory (extensions/extend-once.ts).
 */
export function withSessionTokens(createJwtService: JwtServiceFactory): JwtServiceFactory {
  return ({ strapi }: { strapi: Core.Strapi }): JwtService & { plain: JwtService } => ({
    ...createJwtService({ strapi }),
    plain: createJwtService({ strapi }),
    // Synchronous like the plugin's own: its controllers put the result straight into the answer.
    issue: (payload, options) => signToken(strapi, payload, options),
    verify: (token) => checkedToken(strapi, token),
    getToken(ctx) {
      const context = ctx as TokenContext;
      const parts = (context.request?.header?.authorization ?? '').split(/\s+/);
      if (parts.length !== 2 || parts[0].toLowerCase() !== 'bearer') return null;
      return checkedToken(strapi, parts[1], context);
    },
  });
}
