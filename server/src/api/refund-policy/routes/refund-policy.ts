import { factories } from '@strapi/strapi';

// GET /api/refund-policy only; editors change the text in the admin panel.
export default factories.createCoreRouter('api::refund-policy.refund-policy', {
  only: ['find'],
});
