import type { Core } from '@strapi/strapi';
import { collectIssuedSessions, recordSession, type IssuedSession } from '../security/member-sessions';
import { summarizeUserAgent } from '../security/user-agent';

/**
 * Writes the session row of every token issued while answering (src/security/member-sessions.ts)
 * before the answer leaves, with the device and browser of the request's User-Agent: a client never
 * holds a token whose session is not yet recorded. A failed write fails the request (the token is
 * not handed out).
 */
const sessionRecords: Core.MiddlewareFactory =
  (_config, { strapi }) =>
  async (ctx, next) => {
    const issued: IssuedSession[] = [];
    await collectIssuedSessions(issued, next);
    if (issued.length === 0 || ctx.status >= 400) return;
    const summary = summarizeUserAgent(ctx.get('User-Agent'));
    for (const session of issued) await recordSession(strapi, session, summary);
  };

export default sessionRecords;
