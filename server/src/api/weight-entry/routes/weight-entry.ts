import { memberOnlyAuth } from '../../account/auth/bearer-required';

// Member-only (401 without a bearer token); the authenticated role holds these actions
// (src/bootstrap/permissions.ts). No core routes: a member reaches only their own entries.
export default {
  type: 'content-api',
  routes: [
    {
      method: 'GET',
      path: '/weight-entries',
      handler: 'weight-entry.find',
      config: { auth: memberOnlyAuth(), policies: [], middlewares: [] },
    },
    {
      method: 'POST',
      path: '/weight-entries',
      handler: 'weight-entry.create',
      config: { auth: memberOnlyAuth(), policies: [], middlewares: [] },
    },
    {
      method: 'DELETE',
      path: '/weight-entries/:id',
      handler: 'weight-entry.delete',
      config: { auth: memberOnlyAuth(), policies: [], middlewares: [] },
    },
  ],
};
