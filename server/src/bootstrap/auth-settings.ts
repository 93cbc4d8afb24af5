import type { Core } from '@strapi/strapi';

interface AdvancedSettings {
  email_confirmation?: boolean;
  email_confirmation_redirection?: string | null;
  email_reset_password?: string | null;
  [key: string]: unknown;
}

/** Points users-permissions e-mail links at the SPA routes (/email-confirmation, /reset-password). */
export async function configureAuthSettings(strapi: Core.Strapi): Promise<void> {
  const publicUrl = (process.env.PUBLIC_URL || 'http://localhost:1337').replace(/\/+$/, '');
  const store = strapi.store({ type: 'plugin', name: 'users-permissions' });
  const current = ((await store.get({ key: 'advanced' })) ?? {}) as AdvancedSettings;

  const wanted: AdvancedSettings = {
    ...current,
    email_confirmation: process.env.EMAIL_CONFIRMATION === 'true',
    email_confirmation_redirection: `${publicUrl}/email-confirmation`,
    email_reset_password: `${publicUrl}/reset-password`,
  };
  if (JSON.stringify(wanted) !== JSON.stringify(current)) {
    await store.set({ key: 'advanced', value: wanted });
  }
}
