import { DELETION_NEEDS_LOGIN, memberOnlyAuth } from '../auth/bearer-required';

export default {
  type: 'content-api',
  routes: [
    {
      method: 'DELETE',
      // Under /api like every content-API route (SPEC §7).
      path: '/users-permissions/users/delete-account',
      handler: 'account.deleteAccount',
      config: {
        // 401 without a valid token; the authenticated role holds api::account.account.deleteAccount.
        auth: memberOnlyAuth(DELETION_NEEDS_LOGIN),
        policies: [],
        middlewares: [],
      },
    },
    {
      method: 'POST',
      // "Log out of all devices": every token of the member issued until now stops working.
      path: '/auth/logout-all',
      handler: 'account.logoutAll',
      config: { auth: memberOnlyAuth(), policies: [], middlewares: [] },
    },
    {
      method: 'GET',
      // Everything held about the member, as a JSON file (GDPR art. 15 and 20).
      path: '/account/export',
      handler: 'account.export',
      config: { auth: memberOnlyAuth(), policies: [], middlewares: [] },
    },
  ],
};
