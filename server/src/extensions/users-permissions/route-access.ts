import { pluginRouteAccess } from '../../route-table';

/**
 * Who may call users-permissions' own content-API routes (they have no rows in a route table): the
 * log-in and sign-up routes are the public role's; the profile routes are the member's, and answer 401
 * without a token (profile-guard.ts applies that). Any other route of the plugin (listing users,
 * roles...) no role holds: 403. The boot-time sync grants exactly these (src/bootstrap/permissions.ts).
 */
export const USERS_PERMISSIONS_ACCESS = pluginRouteAccess('users-permissions', {
  visitor: [
    'auth.register',
    'auth.callback',
    'auth.connect',
    'auth.forgotPassword',
    'auth.resetPassword',
    'auth.emailConfirmation',
    'auth.sendEmailConfirmation',
  ],
  // Self only, profile fields only (the route's policy global::only-yourself and profile-guard.ts).
  member: ['user.me', 'auth.changePassword', 'user.update'],
});
