import type { Core } from '@strapi/strapi';
import { SOCIAL_PROVIDERS } from '../contract/social';
import { isEnabled, socialSettings } from '../extensions/users-permissions/social/settings';

const ICONS = { google: 'google', apple: 'apple', facebook: 'facebook-square' } as const;

/**
 * Social sign-in is configured by environment variables (config/social.ts), not in the admin panel.
 * The users-permissions "grant" store (what Settings > Providers shows) mirrors that configuration on
 * every start, so the panel tells the truth; edits made there are overwritten at the next start.
 * No secret is written to the store.
 */
export async function mirrorSocialProviders(strapi: Core.Strapi): Promise<void> {
  const settings = socialSettings(strapi);
  const store = strapi.store({ type: 'plugin', name: 'users-permissions', key: 'grant' });
  const grant = ((await store.get()) ?? {}) as Record<string, Record<string, unknown>>;

  const wanted = Object.fromEntries(
    SOCIAL_PROVIDERS.map((provider) => {
      const key = provider === 'facebook' ? settings.facebook.appId : settings[provider].clientId;
      const callback = provider === 'facebook' ? settings.facebook.redirectUri : `${settings.publicUrl}/login`;
      return [
        provider,
        {
          ...grant[provider],
          icon: ICONS[provider],
          enabled: isEnabled(settings, provider),
          key,
          secret: '',
          callback,
          scope: ['email'],
        },
      ];
    }),
  );
  const next = { ...grant, ...wanted };
  if (JSON.stringify(next) !== JSON.stringify(grant)) {
    await store.set({ value: next });
  }
}
