import { contentApiRoutes } from '../../../route-table';

// The member's signed-in devices (docs/security.md#signed-in-devices-and-sign-in-alerts); own sessions only.
export default contentApiRoutes('member-session', 'member', [
  ['GET', '/sessions', 'find'],
  ['DELETE', '/sessions/:id', 'revoke'],
]);
