import { STEP_UP, contentApiRoutes } from '../../../route-table';

// The member's own two-factor (401 without a token); the second log-in step is public: its ticket names the member.
// Turning it on needs a recent step-up (docs/security.md#step-up); the set-up asks before the secret is made.
// New recovery codes and turning it off take a counted code (and off the password) in the request: that is the
// proof itself, so no step-up is asked first (a step-up by code would spend the code's step, and the resent
// request's code would then be refused as a replay).
export default contentApiRoutes('two-factor', 'member', [
  ['GET', '/two-factor', 'status'],
  ['POST', '/two-factor/setup', 'setup', 'member', STEP_UP],
  ['POST', '/two-factor/enable', 'enable', 'member', STEP_UP],
  ['POST', '/two-factor/recovery-codes', 'regenerate', 'member'],
  ['POST', '/two-factor/disable', 'disable', 'member'],
  ['POST', '/auth/two-factor', 'logIn', 'public'],
]);
