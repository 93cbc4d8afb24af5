import { STEP_UP, contentApiRoutes } from '../../../route-table';

/**
 * Passkeys (docs/security.md#passkeys). The member's own: 401 without a token; the authenticated role
 * holds these actions (derived from these rows, src/bootstrap/permissions.ts). Sign-in is public and
 * rate-limited like every auth route (users-permissions' rateLimit, replaced by src/security/auth-rate-limit.ts).
 */
const routes = contentApiRoutes('passkey', 'member', [
  // Adding or removing a passkey needs a recent step-up (docs/security.md#step-up); asked before the ceremony.
  ['POST', '/passkeys/registration-options', 'registrationOptions', 'member', STEP_UP],
  ['GET', '/passkeys', 'find'],
  ['POST', '/passkeys', 'create', 'member', STEP_UP],
  ['DELETE', '/passkeys/:id', 'delete', 'member', STEP_UP],
  ['POST', '/auth/passkey/options', 'signInOptions', 'public'],
  ['POST', '/auth/passkey', 'signIn', 'public'],
]);

for (const route of routes.routes) {
  if (route.path.startsWith('/auth/passkey')) route.config.middlewares.push('plugin::users-permissions.rateLimit');
}

export default routes;
