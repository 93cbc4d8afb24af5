import type { Core } from '@strapi/strapi';
import type { NextMiddleware as Next, RequestContext as Ctx } from '../../../request-context';
import { errors } from '@strapi/utils';
import { findOrCreateSocialUser } from './accounts';
import { FACEBOOK_MESSAGES, checkState, facebookIdentity, forgetState, startAuthorization } from './facebook';
import { InvalidTokenError, ProviderUnavailableError, verifyAppleIdToken, verifyGoogleIdToken } from './id-token';
import type { SocialProvider } from '../../../contract/social';
import { NOT_SET_UP, PROVIDER_LABELS, isEnabled, isSocialProvider, socialSettings } from './settings';
import { UID } from '../../../content-types';
import { pendingSession } from '../../../security/sessions/tokens';

type Controller = Record<string, (ctx: Ctx, next?: Next) => unknown>;
type ControllerFactory = (deps: { strapi: Core.Strapi }) => Controller;

/** ?x=… as one string ('' when absent or repeated). */
const queryString = (ctx: Ctx, name: string): string => {
  const value = ctx.query?.[name];
  return typeof value === 'string' ? value : '';
};

/** /api/connect/{provider}[/callback] → { provider, isCallback }. */
function parseConnectPath(ctx: Ctx): { provider: string; isCallback: boolean } | null {
  const [requestPath] = String(ctx.request.url).split('?');
  const match = /\/connect\/([^/]+)(?:\/([^/]+))?\/?$/.exec(requestPath);
  return match ? { provider: match[1], isCallback: match[2] === 'callback' } : null;
}

/** Answers an invalid token (401) and a provider outage (502) with Strapi's error shape. */
async function answerErrors(ctx: Ctx, work: () => Promise<unknown>) {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ProviderUnavailableError || error instanceof InvalidTokenError)) throw error;
    ctx.status = error.status;
    ctx.body = { data: null, error: { status: error.status, name: error.errorName, message: error.message, details: {} } };
    return undefined;
  }
}

/**
 * users-permissions' auth controller, with Google, Apple and Facebook sign-in of our own:
 * - GET /api/auth/{google|apple}/callback?access_token=<ID token> (the browser got the token from the
 *   provider's own client): verified here, answered { jwt, user }.
 * - GET /api/connect/facebook → redirect to Facebook's login dialog; GET /api/connect/facebook/callback?code=…
 *   → code exchange at the Graph API, answered { jwt, user }.
 * Every other provider and route goes to the plugin's own controller unchanged.
 */
export function withSocialSignIn(createAuthController: ControllerFactory): ControllerFactory {
  return ({ strapi }) => {
    const base = createAuthController({ strapi });

    const signIn = async (ctx: Ctx, provider: SocialProvider, email: string) => {
      const user = await findOrCreateSocialUser(strapi, provider, email);
      // Recorded by the auth controller's sign-in gate (../strapi-server.ts), like a password log-in's.
      const jwt = pendingSession(strapi, user.id);
      const sanitized = await strapi.contentAPI.sanitize.output(user, strapi.getModel(UID.user), { auth: ctx.state.auth });
      ctx.send({ jwt, user: sanitized });
    };

    const requireEnabled = (provider: SocialProvider) => {
      const settings = socialSettings(strapi);
      if (!isEnabled(settings, provider)) throw new errors.ApplicationError(NOT_SET_UP[provider]);
      return settings;
    };

    /** Where the SPA's callback screen shows a message on /login. */
    const spaErrorRedirect = (ctx: Ctx, provider: SocialProvider, message: string) => {
      const { publicUrl } = socialSettings(strapi);
      ctx.redirect(`${publicUrl}/auth/${provider}/callback?error=${encodeURIComponent(message)}`);
    };

    return {
      ...base,

      async callback(ctx: Ctx, next?: Next) {
        const provider = ctx.params?.provider;
        if (!isSocialProvider(provider)) return base.callback(ctx, next);

        return answerErrors(ctx, async () => {
          if (provider === 'facebook') {
            // Facebook's token never reaches the browser: it signs in through /api/connect/facebook.
            requireEnabled('facebook');
            throw new errors.ValidationError(
              'Facebook sign-in goes through /api/connect/facebook (Continue with Facebook on the log-in page).',
            );
          }
          const settings = requireEnabled(provider);
          const token = queryString(ctx, 'access_token') || queryString(ctx, 'id_token');
          const identity =
            provider === 'google' ? await verifyGoogleIdToken(settings.google, token) : await verifyAppleIdToken(settings.apple, token);
          await signIn(ctx, provider, identity.email);
        });
      },

      async connect(ctx: Ctx, next?: Next) {
        const parsed = parseConnectPath(ctx);
        if (!parsed || !isSocialProvider(parsed.provider)) return base.connect(ctx, next);
        const provider = parsed.provider;
        const settings = socialSettings(strapi);
        const label = PROVIDER_LABELS[provider];

        if (!parsed.isCallback) {
          // A browser navigation: problems go back to the SPA, which shows them on /login.
          if (!isEnabled(settings, provider)) return spaErrorRedirect(ctx, provider, NOT_SET_UP[provider]);
          if (provider !== 'facebook') {
            return spaErrorRedirect(ctx, provider, `${label} sign-in starts on the log-in page (Continue with ${label}).`);
          }
          return ctx.redirect(startAuthorization(settings.facebook, ctx));
        }

        // The SPA's callback screen (a JSON fetch with ?code=…), or Apple's redirect target.
        if (!isEnabled(settings, provider)) throw new errors.ApplicationError(NOT_SET_UP[provider]);
        if (provider !== 'facebook') {
          throw new errors.ValidationError(`${label} sign-in does not use this callback: use Continue with ${label} on the log-in page.`);
        }
        const providerError = queryString(ctx, 'error_description') || queryString(ctx, 'error');
        if (providerError) throw new errors.ValidationError(FACEBOOK_MESSAGES.failed(providerError));
        const code = queryString(ctx, 'code');
        if (!code) throw new errors.ValidationError(FACEBOOK_MESSAGES.noCode);

        return answerErrors(ctx, async () => {
          checkState(ctx, ctx.query?.state);
          const identity = await facebookIdentity(settings.facebook, code);
          await signIn(ctx, 'facebook', identity.email);
          forgetState(ctx);
        });
      },
    };
  };
}
