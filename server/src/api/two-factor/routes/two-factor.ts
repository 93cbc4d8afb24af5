import { STEP_UP, contentApiRoutes } from '../../../route-table';

// The member's own two-factor (401 without a token); the second log-in step is public: its ticket names the member.
// Every change needs a recent step-up (docs/security.md#step-up); the set-up asks before the secret is made.
export default contentApiRoutes('two-factor', 'member', [
  ['GET', '/two-factor', 'status'],
  ['POST', '/two-factor/setup', 'setup', 'member', STEP_UP],
  ['POST', '/two-factor/enable', 'enable', 'member', STEP_UP],
  ['POST', '/two-factor/recovery-codes', 'regenerate', 'member', STEP_UP],
  ['POST', '/two-factor/disable', 'disable', 'member', STEP_UP],
  ['POST', '/auth/two-factor', 'logIn', 'public'],
]);
