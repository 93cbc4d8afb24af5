import { factories } from '@strapi/strapi';

export default factories.createCoreService('api::refund-policy.refund-policy');
