import type { Core } from '@strapi/strapi';
import { SOCIAL_PROVIDERS, type SocialConfig, type SocialProvider } from '../../../contract/social';

export const isSocialProvider = (value: unknown): value is SocialProvider =>
  typeof value === 'string' && (SOCIAL_PROVIDERS as readonly string[]).includes(value);

export const PROVIDER_LABELS: Record<SocialProvider, string> = { google: 'Google', apple: 'Apple', facebook: 'Facebook' };

/** config/social.ts */
export interface SocialSettings {
  google: { switchedOn: boolean; clientId: string; jwksUrl: string; issuers: string[] };
  apple: { switchedOn: boolean; clientId: string; jwksUrl: string; issuer: string; redirectUri: string };
  facebook: {
    switchedOn: boolean;
    appId: string;
    appSecret: string;
    authorizeUrl: string;
    graphUrl: string;
    redirectUri: string;
  };
  publicUrl: string;
}

export function socialSettings(strapi: Core.Strapi): SocialSettings {
  return strapi.config.get('social') as SocialSettings;
}

/** Configured (ids and secrets present) and switched on. */
export function isEnabled(settings: SocialSettings, provider: SocialProvider): boolean {
  switch (provider) {
    case 'google':
      return settings.google.switchedOn && Boolean(settings.google.clientId);
    case 'apple':
      return settings.apple.switchedOn && Boolean(settings.apple.clientId);
    case 'facebook':
      return settings.facebook.switchedOn && Boolean(settings.facebook.appId && settings.facebook.appSecret);
  }
}

/** The answer of GET /api/social/config: only public values (never the Facebook app secret). */
export function publicSocialConfig(settings: SocialSettings): SocialConfig {
  const google = isEnabled(settings, 'google');
  const apple = isEnabled(settings, 'apple');
  return {
    google: { enabled: google, clientId: google ? settings.google.clientId : null },
    apple: {
      enabled: apple,
      clientId: apple ? settings.apple.clientId : null,
      redirectURI: apple ? settings.apple.redirectUri : null,
    },
    facebook: { enabled: isEnabled(settings, 'facebook') },
  };
}

export const NOT_SET_UP: Record<SocialProvider, string> = {
  google: 'Google sign-in is not set up on this site.',
  apple: 'Apple sign-in is not set up on this site.',
  facebook: 'Facebook sign-in is not set up on this site.',
};
