import { contentApiRoutes } from '../../../route-table';

// Public (auth: false): which social providers are set up, and the public ids the browser needs.
export default contentApiRoutes('social', 'public', [['GET', '/social/config', 'config']]);
