import { factories } from '@strapi/strapi';

// GET /api/privacy-policy only; editors change the text in the admin panel.
export default factories.createCoreRouter('api::privacy-policy.privacy-policy', {
  only: ['find'],
});
