// @ts-nocheck
import { factories } from '@strapi/strapi';
import { UID } from '../../../content-types';

// GET /api/refund-policy only; editors change the text in the admin panel.
export default factories.createCoreRouter(UID.refundPolicy, {
  only: ['find'],
});
