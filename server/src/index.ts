import type { Core } from '@strapi/strapi';
import { configureAuthSettings } from './bootstrap/auth-settings';
import { seedIngredients } from './bootstrap/ingredients';
import { seedLegalDocuments } from './bootstrap/legal';
import { seedSubscriptionPlans, setupPayments } from './bootstrap/payments';
import { syncRolePermissions } from './bootstrap/permissions';
import { mirrorSocialProviders } from './bootstrap/social';

export default {
  register(/* { strapi }: { strapi: Core.Strapi } */) {},

  // Idempotent: runs on every start.
  async bootstrap({ strapi }: { strapi: Core.Strapi }) {
    await seedIngredients(strapi);
    await seedLegalDocuments(strapi);
    await syncRolePermissions(strapi);
    await configureAuthSettings(strapi);
    await mirrorSocialProviders(strapi);
    await seedSubscriptionPlans(strapi);
    await setupPayments(strapi);
  },
};
