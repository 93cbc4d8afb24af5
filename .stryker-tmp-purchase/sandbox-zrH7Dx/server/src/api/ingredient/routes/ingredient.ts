// @ts-nocheck
import { factories } from '@strapi/strapi';
import { UID } from '../../../content-types';

// Read-only over the content API; editing happens in the admin panel.
export default factories.createCoreRouter(UID.ingredient, {
  only: ['find', 'findOne'],
});
