// @ts-nocheck
// Public (auth: false): which social providers are set up, and the public ids the browser needs.
export default {
  type: 'content-api',
  routes: [
    {
      method: 'GET',
      path: '/social/config',
      handler: 'social.config',
      config: { auth: false, policies: [], middlewares: [] },
    },
  ],
};
