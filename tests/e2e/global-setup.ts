import type { TestProject } from 'vitest/node';
import { startFacebookDouble } from '../../server/tests/helpers/social-doubles';
import { freePort, secret, startE2eServer } from './support/server';

export default async function setup(project: TestProject) {
  // The port comes first: the Facebook double must know the callback URL on this origin.
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // Facebook's login dialog and Graph API on 127.0.0.1 (see server/tests/helpers/social-doubles.ts).
  const facebookApp = { appId: 'e2e-facebook-app', appSecret: secret(), redirectUri: `${baseUrl}/auth/facebook/callback` };
  const facebook = await startFacebookDouble(facebookApp);

  let server: Awaited<ReturnType<typeof startE2eServer>>;
  try {
    server = await startE2eServer(
      {
        // An hourly reminder run could fire mid-suite and mail other tests' members; reminders.test.ts has its own server.
        GOAL_REMINDER_CRON: 'off',
        // Social sign-in: Facebook through the local double; Google and Apple not set up.
        FACEBOOK_APP_ID: facebookApp.appId,
        FACEBOOK_APP_SECRET: facebookApp.appSecret,
        FACEBOOK_AUTHORIZE_URL: facebook.authorizeUrl,
        FACEBOOK_GRAPH_URL: facebook.graphUrl,
        FACEBOOK_REDIRECT_URI: '',
        GOOGLE_CLIENT_ID: '',
        APPLE_SERVICE_ID: '',
      },
      { port },
    );
  } catch (error) {
    await facebook.close();
    throw error;
  }

  project.provide('baseUrl', server.baseUrl);
  project.provide('outboxDir', server.outboxDir);
  project.provide('facebookOrigin', facebook.origin);

  return async () => {
    await server.stop();
    await facebook.close();
  };
}
