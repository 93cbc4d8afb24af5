import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { SIGNED_OUT_REASON, sessionMessages } from '../contract/sessions';

/**
 * A 401 for a token whose session was signed out elsewhere (a device list, "Log out of all devices",
 * a credential change) says so, with a reason the SPA reads (contract/sessions.ts), instead of Strapi's
 * "Missing or invalid credentials". The token check notes it on the request
 * (src/security/sessions/tokens.ts); Strapi answers a refused token with a 401 body, not a throw.
 */
const signedOutSessions: Core.MiddlewareFactory = () => async (ctx, next) => {
  await next();
  if (ctx.state.signedOutSession === true && ctx.status === 401) {
    throw new errors.UnauthorizedError(sessionMessages.signedOutElsewhere, { reason: SIGNED_OUT_REASON });
  }
};

export default signedOutSessions;
