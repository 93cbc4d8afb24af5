import { STEP_UP, contentApiRoutes } from '../../../route-table';

// Member-only: 401 without a bearer token; the authenticated role holds these actions (derived from these rows,
// src/bootstrap/permissions.ts). No core routes: records are only changed through these.
export default contentApiRoutes('subscription', 'member', [
  ['GET', '/subscriptions/current', 'current'],
  ['POST', '/subscriptions', 'create'],
  ['POST', '/subscriptions/cancel', 'cancel'],
  ['POST', '/subscriptions/resume', 'resume'],
  // The refund ends the plan and uses the once-only guarantee: a stolen session alone cannot claim it.
  ['POST', '/subscriptions/refund', 'refund', 'member', STEP_UP],
  ['GET', '/subscriptions/invoices', 'invoices'],
  ['GET', '/subscriptions/card', 'card'],
  ['POST', '/subscriptions/portal', 'portal'],
  ['GET', '/subscriptions/:id/verify', 'verify'],
]);
