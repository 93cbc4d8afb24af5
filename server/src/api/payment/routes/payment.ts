import { contentApiRoutes } from '../../../route-table';

// Public routes (auth: false): the configuration the SPA needs, the sandbox's card confirmation
// (guarded by the payment's client secret, like Stripe's confirmCardPayment), the sandbox's receipt
// pages (guarded by an unguessable id, like Stripe's hosted invoice pages) and Stripe's webhook
// (guarded by its signature over the raw body). The sandbox card update is the member's own.
export default contentApiRoutes('payment', 'public', [
  ['GET', '/payments/config', 'config'],
  ['POST', '/payments/sandbox/confirm', 'sandboxConfirm'],
  ['POST', '/payments/sandbox/card', 'sandboxCard', 'member'],
  ['GET', '/payments/sandbox/receipts/:id', 'sandboxReceipt'],
  ['POST', '/payments/webhook', 'webhook'],
]);
