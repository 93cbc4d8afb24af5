import { factories } from '@strapi/strapi';

// Read-only over the content API; editing happens in the admin panel.
export default factories.createCoreRouter('api::ingredient.ingredient', {
  only: ['find', 'findOne'],
});
