// @ts-nocheck
// Public routes (auth: false): the configuration the SPA needs, the sandbox's card confirmation
// (guarded by the payment's client secret, like Stripe's confirmCardPayment) and Stripe's webhook
// (guarded by its signature over the raw body).
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
      path: '/payments/webhook',
      handler: 'payment.webhook',
      config: { auth: false, policies: [], middlewares: [] },
    },
  ],
};
