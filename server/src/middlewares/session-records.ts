import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { SIGNED_OUT_REASON, sessionMessages } from '../contract/sessions';
import { collectIssuedSessions, recordSession, watchSignedOutToken, type IssuedSession } from '../security/member-sessions';
import { summarizeUserAgent } from '../security/user-agent';

/**
 * Writes the session row of every token issued while answering (src/security/member-sessions.ts)
 * before the answer leaves, with the device and browser of the request's User-Agent: a client never
 * holds a token whose session is not yet recorded. A failed write fails the request (the token is
 * not handed out).
 *
 * A 401 for a token whose session was signed out elsewhere says so, with a reason the SPA reads
 * (contract/sessions.ts), instead of Strapi's "Missing or invalid credentials".
 */
const sessionRecords: Core.MiddlewareFactory =
  (_config, { strapi }) =>
  async (ctx, next) => {
    const issued: IssuedSession[] = [];
    const token = { signedOut: false };
    await watchSignedOutToken(token, () => collectIssuedSessions(issued, next));
    // Strapi answers a refused token with ctx.unauthorized() (a 401 body, not a throw): answered again, with why.
    if (token.signedOut && ctx.status === 401) {
      throw new errors.UnauthorizedError(sessionMessages.signedOutElsewhere, { reason: SIGNED_OUT_REASON });
    }
    if (issued.length === 0 || ctx.status >= 400) return;
    const summary = summarizeUserAgent(ctx.get('User-Agent'));
    for (const session of issued) await recordSession(strapi, session, summary);
  };

export default sessionRecords;
