import { memberOnlyAuth } from '../../account/auth/bearer-required';

// Public routes (auth: false): the configuration the SPA needs, the sandbox's card confirmation
// (guarded by the payment's client secret, like Stripe's confirmCardPayment), the sandbox's receipt
// pages (guarded by an unguessable id, like Stripe's hosted invoice pages) and Stripe's webhook
// (guarded by its signature over the raw body). The sandbox card update is the member's own.
export default {
  type: 'content-api',
  routes: [
    {
      method: 'GET',
      path: '/payments/config',
      handler: 'payment.config',
      config: { auth: false, policies: [], middlewares: [] },
    },
    {
      method: 'POST',
      path: '/payments/sandbox/confirm',
      handler: 'payment.sandboxConfirm',
      config: { auth: false, policies: [], middlewares: [] },
    },
    {
      method: 'POST',
      path: '/payments/sandbox/card',
      handler: 'payment.sandboxCard',
      config: { auth: memberOnlyAuth(), policies: [], middlewares: [] },
    },
    {
      method: 'GET',
      path: '/payments/sandbox/receipts/:id',
      handler: 'payment.sandboxReceipt',
      config: { auth: false, policies: [], middlewares: [] },
    },
    {
      method: 'POST',
      path: '/payments/webhook',
      handler: 'payment.webhook',
      config: { auth: false, policies: [], middlewares: [] },
    },
  ],
};
