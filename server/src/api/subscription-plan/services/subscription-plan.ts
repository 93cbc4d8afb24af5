import { factories } from '@strapi/strapi';

export default factories.createCoreService('api::subscription-plan.subscription-plan');
