import type { Core } from '@strapi/strapi';
import { publicUrl } from '../public-url';

/** users-permissions' advanced settings (the admin panel's "Advanced settings"), as far as the app reads them. */
export interface AdvancedSettings {
  email_confirmation?: boolean;
  email_confirmation_redirection?: string | null;
  email_reset_password?: string | null;
  allow_register?: boolean;
  default_role?: string;
  [key: string]: unknown;
}

/** The advanced settings as stored now (an admin may change them at any time); {} before any are. */
export async function readAuthSettings(strapi: Core.Strapi): Promise<AdvancedSettings> {
  return ((await strapi.store({ type: 'plugin', name: 'users-permissions' }).get({ key: 'advanced' })) ?? {}) as AdvancedSettings;
}

interface EmailTemplate {
  options?: { from?: { name?: string; email?: string }; [key: string]: unknown };
  [key: string]: unknown;
}

// users-permissions' initial sender of its e-mail templates.
const STRAPI_DEFAULT_SENDER = 'no-reply@strapi.io';

/** "Carnivo <no-reply@carnivo.app>" -> { name: 'Carnivo', email: 'no-reply@carnivo.app' } */
export function parseSender(value: string): { name: string; email: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(value);
  if (match) return { name: match[1].trim(), email: match[2].trim() };
  return { name: '', email: value.trim() };
}

/**
 * Keeps users-permissions' "One account per email address" on, points its e-mail links at the SPA
 * routes (/email-confirmation, /reset-password), and its e-mail templates (confirmation) at the
 * configured sender (EMAIL_FROM) while they still carry Strapi's default one.
 */
export async function configureAuthSettings(strapi: Core.Strapi): Promise<void> {
  const siteUrl = publicUrl();
  const store = strapi.store({ type: 'plugin', name: 'users-permissions' });
  const current = await readAuthSettings(strapi);

  const wanted: AdvancedSettings = {
    ...current,
    email_confirmation: process.env.EMAIL_CONFIRMATION === 'true',
    email_confirmation_redirection: `${siteUrl}/email-confirmation`,
    email_reset_password: `${siteUrl}/reset-password`,
    // One account per address, always: the database's unique index on lower(email) holds it anyway.
    unique_email: true,
  };
  if (JSON.stringify(wanted) !== JSON.stringify(current)) {
    await store.set({ key: 'advanced', value: wanted });
  }

  const sender = parseSender(process.env.EMAIL_FROM || 'Carnivo <no-reply@carnivo.app>');
  const templates = ((await store.get({ key: 'email' })) ?? {}) as Record<string, EmailTemplate>;
  let changed = false;
  for (const template of Object.values(templates)) {
    const from = template?.options?.from;
    if (from && from.email === STRAPI_DEFAULT_SENDER) {
      template.options!.from = { ...sender, name: sender.name || from.name || '' };
      changed = true;
    }
  }
  if (changed) {
    await store.set({ key: 'email', value: templates });
  }
}
