import { memberOnlyAuth } from '../../account/auth/bearer-required';

// Member-only: 401 without a bearer token; the authenticated role holds these actions
// (src/bootstrap/permissions.ts). No core routes: records are only changed through these.
export default {
  type: 'content-api',
  routes: [
    {
      method: 'GET',
      path: '/subscriptions/current',
      handler: 'subscription.current',
      config: { auth: memberOnlyAuth(), policies: [], middlewares: [] },
    },
    {
      method: 'POST',
      path: '/subscriptions',
      handler: 'subscription.create',
      config: { auth: memberOnlyAuth(), policies: [], middlewares: [] },
    },
    {
      method: 'POST',
      path: '/subscriptions/cancel',
      handler: 'subscription.cancel',
      config: { auth: memberOnlyAuth(), policies: [], middlewares: [] },
    },
    {
      method: 'POST',
      path: '/subscriptions/resume',
      handler: 'subscription.resume',
      config: { auth: memberOnlyAuth(), policies: [], middlewares: [] },
    },
    {
      method: 'GET',
      path: '/subscriptions/invoices',
      handler: 'subscription.invoices',
      config: { auth: memberOnlyAuth(), policies: [], middlewares: [] },
    },
    {
      method: 'POST',
      path: '/subscriptions/portal',
      handler: 'subscription.portal',
      config: { auth: memberOnlyAuth(), policies: [], middlewares: [] },
    },
    {
      method: 'GET',
      path: '/subscriptions/:id/verify',
      handler: 'subscription.verify',
      config: { auth: memberOnlyAuth(), policies: [], middlewares: [] },
    },
  ],
};
