// @ts-nocheck
import { factories } from '@strapi/strapi';
import { UID } from '../../../content-types';

// GET /api/terms-and-condition only; editors change the text in the admin panel.
export default factories.createCoreRouter(UID.termsAndCondition, {
  only: ['find'],
});
