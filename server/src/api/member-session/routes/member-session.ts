import { contentApiRoutes } from '../../../route-table';

// The member's signed-in devices (docs/security.md#signed-in-devices-and-sign-in-alerts); own sessions only.
const routes = contentApiRoutes('member-session', 'member', [
  ['GET', '/sessions', 'find'],
  ['DELETE', '/sessions/:id', 'revoke'],
  // Step-up (docs/security.md#step-up): a fresh proof of presence on this session; under the auth routes' rate limit.
  ['POST', '/auth/step-up', 'stepUp'],
]);

for (const route of routes.routes) {
  if (route.path === '/auth/step-up') route.config.middlewares.push('plugin::users-permissions.rateLimit');
}

export default routes;
