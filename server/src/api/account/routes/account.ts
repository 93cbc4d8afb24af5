import { STEP_UP, contentApiRoutes } from '../../../route-table';
import { DELETION_NEEDS_LOGIN, memberOnlyAuth } from '../auth/bearer-required';

// 401 without a valid token; the authenticated role holds these actions (derived from these rows, src/bootstrap/permissions.ts).
// Deleting the account and downloading its data need a recent step-up (docs/security.md#step-up).
const routes = contentApiRoutes('account', 'member', [
  // Under /api like every content-API route (SPEC §7).
  ['DELETE', '/users-permissions/users/delete-account', 'deleteAccount', memberOnlyAuth(DELETION_NEEDS_LOGIN), STEP_UP],
  // "Log out of all devices": every token of the member issued until now stops working.
  ['POST', '/auth/logout-all', 'logoutAll'],
  // Everything held about the member, as a JSON file (GDPR art. 15 and 20).
  ['GET', '/account/export', 'export', 'member', STEP_UP],
  // The links of a verified e-mail change (docs/security.md#verified-e-mail-change): the token is the
  // credential, so anyone holding the link may use it, under the auth routes' rate limit.
  ['POST', '/auth/email-change/confirm', 'confirmEmailChange', 'public'],
  ['POST', '/auth/email-change/cancel', 'cancelEmailChange', 'public'],
]);

for (const route of routes.routes) {
  if (route.path.startsWith('/auth/email-change/')) route.config.middlewares.push('plugin::users-permissions.rateLimit');
}

export default routes;
