import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { errors } from '@strapi/utils';
import type { SocialSettings } from './settings';
import { emailMessages, isValidEmail } from '../../../contract/fieldRules';

/**
 * Verification of the ID tokens the browser gets from Google Identity Services and from
 * Sign in with Apple JS: RS256 signature against the provider's published keys (JWKS, fetched
 * and cached by jose, re-fetched when an unknown key id shows up), audience = our client id,
 * issuer, expiry, and a verified e-mail address.
 */

export interface VerifiedIdentity {
  email: string;
  subject: string;
}

export const TOKEN_MESSAGES = {
  google: {
    invalid: 'The Google sign-in token is invalid or has expired.',
    unverified: 'Your Google account e-mail is not verified.',
    noEmail: 'Your Google account has no e-mail address.',
    missing: 'Google sign-in failed: no Google sign-in token was sent.',
    keysUnavailable: "Google sign-in is unavailable right now: Google's signing keys could not be fetched.",
  },
  apple: {
    invalid: 'The Apple sign-in token is invalid or has expired.',
    unverified: 'Your Apple account e-mail is not verified.',
    noEmail: 'Your Apple account has no e-mail address.',
    missing: 'Apple sign-in failed: no Apple identity token was sent.',
    keysUnavailable: "Apple sign-in is unavailable right now: Apple's signing keys could not be fetched.",
  },
} as const;

type IdTokenProvider = keyof typeof TOKEN_MESSAGES;

// One key set per URL, kept for the life of the process (jose caches the keys inside it).
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySet(url: string) {
  let set = keySets.get(url);
  if (!set) {
    set = createRemoteJWKSet(new URL(url), { timeoutDuration: 5_000, cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 });
    keySets.set(url, set);
  }
  return set;
}

/** Google and Apple both send email_verified as a boolean; Apple has also sent the string "true". */
const isTrue = (value: unknown) => value === true || value === 'true';

/** The provider could not be asked (keys unreachable, Graph API down): answered 502 by the controller. */
export class ProviderUnavailableError extends Error {
  readonly status = 502;
  readonly errorName = 'BadGatewayError';
}

/**
 * A token that fails verification: answered 401 by the controller. (Not Strapi's UnauthorizedError:
 * Strapi's authorize middleware would replace its message with a bare "Unauthorized".)
 */
export class InvalidTokenError extends Error {
  readonly status = 401;
  readonly errorName = 'UnauthorizedError';
}

/** jose's failures to fetch or read the key set, as opposed to a bad token. */
function isKeySetFailure(error: unknown): boolean {
  if (!(error instanceof joseErrors.JOSEError)) return true; // network errors, bad URL configuration
  return ['ERR_JOSE_GENERIC', 'ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID'].includes(error.code);
}

async function verify(provider: IdTokenProvider, token: unknown, key: { url: string; audience: string; issuer: string[] }) {
  const messages = TOKEN_MESSAGES[provider];
  if (typeof token !== 'string' || token.trim() === '') throw new errors.ValidationError(messages.missing);

  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token.trim(), keySet(key.url), {
      algorithms: ['RS256'],
      audience: key.audience,
      issuer: key.issuer,
      requiredClaims: ['exp', 'iat', 'sub'],
      clockTolerance: 5,
    }));
  } catch (error) {
    if (isKeySetFailure(error)) throw new ProviderUnavailableError(messages.keysUnavailable);
    throw new InvalidTokenError(messages.invalid);
  }

  const email = typeof payload.email === 'string' ? payload.email.trim().toLowerCase() : '';
  if (!email) throw new errors.ValidationError(messages.noEmail);
  if (!isValidEmail(email)) throw new errors.ValidationError(emailMessages.invalidFormat);
  if (!isTrue(payload.email_verified)) throw new errors.ValidationError(messages.unverified);
  return { email, subject: String(payload.sub) };
}

export function verifyGoogleIdToken(settings: SocialSettings['google'], token: unknown): Promise<VerifiedIdentity> {
  return verify('google', token, { url: settings.jwksUrl, audience: settings.clientId, issuer: settings.issuers });
}

export function verifyAppleIdToken(settings: SocialSettings['apple'], token: unknown): Promise<VerifiedIdentity> {
  return verify('apple', token, { url: settings.jwksUrl, audience: settings.clientId, issuer: [settings.issuer] });
}
