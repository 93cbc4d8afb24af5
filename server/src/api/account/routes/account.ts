import { contentApiRoutes } from '../../../route-table';
import { DELETION_NEEDS_LOGIN, memberOnlyAuth } from '../auth/bearer-required';

// 401 without a valid token; the authenticated role holds these actions (src/bootstrap/permissions.ts).
export default contentApiRoutes('account', 'member', [
  // Under /api like every content-API route (SPEC §7).
  ['DELETE', '/users-permissions/users/delete-account', 'deleteAccount', memberOnlyAuth(DELETION_NEEDS_LOGIN)],
  // "Log out of all devices": every token of the member issued until now stops working.
  ['POST', '/auth/logout-all', 'logoutAll'],
  // Everything held about the member, as a JSON file (GDPR art. 15 and 20).
  ['GET', '/account/export', 'export'],
]);
