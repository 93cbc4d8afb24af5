import { factories } from '@strapi/strapi';

export default factories.createCoreController('api::refund-policy.refund-policy');
