import { factories } from '@strapi/strapi';
import { UID } from '../../../content-types';
import { everyoneReads } from '../../../route-table';

// Read-only list over the content API; plans are edited in the admin panel.
export default everyoneReads(factories, UID.subscriptionPlan, ['find']);
