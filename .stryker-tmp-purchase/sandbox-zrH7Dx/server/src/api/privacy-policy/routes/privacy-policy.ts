// @ts-nocheck
import { factories } from '@strapi/strapi';
import { UID } from '../../../content-types';

// GET /api/privacy-policy only; editors change the text in the admin panel.
export default factories.createCoreRouter(UID.privacyPolicy, {
  only: ['find'],
});
