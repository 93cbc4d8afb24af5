import { factories } from '@strapi/strapi';

// Read-only list over the content API; plans are edited in the admin panel.
export default factories.createCoreRouter('api::subscription-plan.subscription-plan', {
  only: ['find'],
});
