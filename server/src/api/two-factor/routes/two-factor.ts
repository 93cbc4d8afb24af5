import { contentApiRoutes } from '../../../route-table';

// The member's own two-factor (401 without a token); the second log-in step is public: its ticket names the member.
export default contentApiRoutes('two-factor', 'member', [
  ['GET', '/two-factor', 'status'],
  ['POST', '/two-factor/setup', 'setup'],
  ['POST', '/two-factor/enable', 'enable'],
  ['POST', '/two-factor/recovery-codes', 'regenerate'],
  ['POST', '/two-factor/disable', 'disable'],
  ['POST', '/auth/two-factor', 'logIn', 'public'],
]);
