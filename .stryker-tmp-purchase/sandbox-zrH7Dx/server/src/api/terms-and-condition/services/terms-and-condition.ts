// @ts-nocheck
import { factories } from '@strapi/strapi';
import { UID } from '../../../content-types';

export default factories.createCoreService(UID.termsAndCondition);
