// @ts-nocheck
export default {
  type: 'content-api',
  routes: [
    {
      method: 'GET',
      // Liveness: the process answers.
      path: '/health/live',
      handler: 'health.live',
      config: { auth: false, policies: [], middlewares: [] },
    },
    {
      method: 'GET',
      // Readiness, for a load balancer: the database answers, Redis too when configured, and the instance is not draining.
      path: '/health/ready',
      handler: 'health.ready',
      config: { auth: false, policies: [], middlewares: [] },
    },
  ],
};
