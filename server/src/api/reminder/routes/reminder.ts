// Public: the link of a reminder e-mail works without logging in; its signed token names the member.
// GET is the link itself; POST is the one-click unsubscribe of mail clients (RFC 8058).
export default {
  type: 'content-api',
  routes: [
    {
      method: 'GET',
      path: '/reminders/unsubscribe',
      handler: 'reminder.unsubscribe',
      config: { auth: false, policies: [], middlewares: [] },
    },
    {
      method: 'POST',
      path: '/reminders/unsubscribe',
      handler: 'reminder.unsubscribe',
      config: { auth: false, policies: [], middlewares: [] },
    },
  ],
};
