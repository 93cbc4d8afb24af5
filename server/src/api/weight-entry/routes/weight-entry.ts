import { contentApiRoutes } from '../../../route-table';

// Member-only (401 without a bearer token); the authenticated role holds these actions (derived from these rows,
// src/bootstrap/permissions.ts). No core routes: a member reaches only their own entries.
export default contentApiRoutes('weight-entry', 'member', [
  ['GET', '/weight-entries', 'find'],
  ['POST', '/weight-entries', 'create'],
  ['DELETE', '/weight-entries/:id', 'delete'],
]);
