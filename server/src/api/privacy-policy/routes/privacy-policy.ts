import { factories } from '@strapi/strapi';
import { UID } from '../../../content-types';
import { everyoneReads } from '../../../route-table';

// GET /api/privacy-policy only; editors change the text in the admin panel.
export default everyoneReads(factories, UID.privacyPolicy, ['find']);
