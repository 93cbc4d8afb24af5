// @ts-nocheck
import type { Core } from '@strapi/strapi';
import { publicSocialConfig, socialSettings } from '../../../extensions/users-permissions/social/settings';

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /** GET /api/social/config: { google: { enabled, clientId }, apple: { enabled, clientId, redirectURI }, facebook: { enabled } } */
  async config(ctx: { body: unknown; set: (name: string, value: string) => void }) {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = publicSocialConfig(socialSettings(strapi));
  },
});
