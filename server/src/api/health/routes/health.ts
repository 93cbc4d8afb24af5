import { contentApiRoutes } from '../../../route-table';

export default contentApiRoutes('health', 'public', [
  // Liveness: the process answers.
  ['GET', '/health/live', 'live'],
  // Readiness, for a load balancer: the database answers, Redis too when configured, and the instance is not draining.
  ['GET', '/health/ready', 'ready'],
]);
