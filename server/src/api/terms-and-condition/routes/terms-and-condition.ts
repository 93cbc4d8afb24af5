import { factories } from '@strapi/strapi';

// GET /api/terms-and-condition only; editors change the text in the admin panel.
export default factories.createCoreRouter('api::terms-and-condition.terms-and-condition', {
  only: ['find'],
});
