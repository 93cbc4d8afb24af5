// @ts-nocheck
import { factories } from '@strapi/strapi';
import { UID } from '../../../content-types';

// Read-only list over the content API; plans are edited in the admin panel.
export default factories.createCoreRouter(UID.subscriptionPlan, {
  only: ['find'],
});
