import { STEP_UP, contentApiRoutes } from '../../../route-table';

/**
 * Passkeys (docs/security.md#passkeys). The member's own: 401 without a token; the authenticated role
 * holds these actions (src/bootstrap/permissions.ts). Sign-in is public and rate-limited like every
 * auth route (users-permissions' rateLimit, replaced by src/security/auth-rate-limit.ts).
 */
const member = contentApiRoutes('passkey', 'member', [
  // Adding or removing a passkey needs a recent step-up (docs/security.md#step-up); asked before the ceremony.
  ['POST', '/passkeys/registration-options', 'registrationOptions', 'member', STEP_UP],
  ['GET', '/passkeys', 'find'],
  ['POST', '/passkeys', 'create', 'member', STEP_UP],
  ['DELETE', '/passkeys/:id', 'delete', 'member', STEP_UP],
]);

const signIn = contentApiRoutes('passkey', 'public', [
  ['POST', '/auth/passkey/options', 'signInOptions'],
  ['POST', '/auth/passkey', 'signIn'],
]);

export default {
  type: 'content-api' as const,
  routes: [
    ...member.routes,
    ...signIn.routes.map((route) => ({ ...route, config: { ...route.config, middlewares: ['plugin::users-permissions.rateLimit'] } })),
  ],
};
