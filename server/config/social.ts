import type { Core } from '@strapi/strapi';

/**
 * Social sign-in (see docs/social-sign-in.md). Read at request time as strapi.config.get('social').
 * A provider is enabled when it is configured (its client id, plus the app secret for Facebook)
 * and not switched off with <PROVIDER>_ENABLED=false. Key and API URLs can point at local doubles.
 */
export default ({ env }: Core.Config.Shared.ConfigParams) => {
  // An empty variable counts as unset.
  const str = (name: string, fallback: string) => env(name, '') || fallback;
  const publicUrl = str('PUBLIC_URL', 'http://localhost:1337').replace(/\/+$/, '');
  return {
    google: {
      switchedOn: env.bool('GOOGLE_ENABLED', true),
      clientId: env('GOOGLE_CLIENT_ID', ''),
      jwksUrl: str('GOOGLE_JWKS_URL', 'https://www.googleapis.com/oauth2/v3/certs'),
      issuers: str('GOOGLE_ISSUERS', 'accounts.google.com,https://accounts.google.com')
        .split(',')
        .map((issuer) => issuer.trim())
        .filter(Boolean),
    },
    apple: {
      switchedOn: env.bool('APPLE_ENABLED', true),
      // The Services ID of "Sign in with Apple for the web": the identity token's audience.
      clientId: env('APPLE_SERVICE_ID', ''),
      jwksUrl: str('APPLE_JWKS_URL', 'https://appleid.apple.com/auth/keys'),
      issuer: str('APPLE_ISSUER', 'https://appleid.apple.com'),
      redirectUri: str('APPLE_REDIRECT_URI', `${publicUrl}/api/connect/apple/callback`),
    },
    facebook: {
      switchedOn: env.bool('FACEBOOK_ENABLED', true),
      appId: env('FACEBOOK_APP_ID', ''),
      appSecret: env('FACEBOOK_APP_SECRET', ''),
      authorizeUrl: str('FACEBOOK_AUTHORIZE_URL', 'https://www.facebook.com/v19.0/dialog/oauth'),
      graphUrl: str('FACEBOOK_GRAPH_URL', 'https://graph.facebook.com/v19.0').replace(/\/+$/, ''),
      // The SPA's callback route: Facebook sends the browser there with ?code=…, and the SPA
      // hands the code to GET /api/connect/facebook/callback.
      redirectUri: str('FACEBOOK_REDIRECT_URI', `${publicUrl}/auth/facebook/callback`),
    },
    publicUrl,
  };
};
