import { contentApiRoutes } from '../../../route-table';

// Public: the link of a reminder e-mail works without logging in; its signed token names the member.
// GET is the link itself; POST is the one-click unsubscribe of mail clients (RFC 8058).
export default contentApiRoutes('reminder', 'public', [
  ['GET', '/reminders/unsubscribe', 'unsubscribe'],
  ['POST', '/reminders/unsubscribe', 'unsubscribe'],
]);
