import { contentApiRoutes } from '../../../route-table';

// Public to Strapi's auth: the controller checks METRICS_TOKEN itself (and answers 404 without it).
export default contentApiRoutes('metrics', 'public', [['GET', '/metrics', 'scrape']]);
