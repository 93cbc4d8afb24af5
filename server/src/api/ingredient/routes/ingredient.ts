import { factories } from '@strapi/strapi';
import { UID } from '../../../content-types';
import { everyoneReads } from '../../../route-table';

// Read-only over the content API; editing happens in the admin panel.
export default everyoneReads(factories, UID.ingredient, ['find', 'findOne']);
