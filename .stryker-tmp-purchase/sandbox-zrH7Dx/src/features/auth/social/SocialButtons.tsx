// @ts-nocheck
import { useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { socialSignInMachine } from '../../../../machines/socialSignIn.machine';
import { useAuthActor, useFlows } from '../../../app/appContext';
import { useFlowActor } from '../../../app/useFlowActor';
import { saveSocialRedirect } from '../../../auth/browserSessionStore';
import { FormMessages } from '../../../components/form/FormMessages';
import { ensureFacebookSetUp, providerIdToken } from './providerClients';
import { useHydrated } from '../../../app/useHydrated';

/** The provider clients and the browser redirect behind Log In's social buttons. */
const browserSocialSignIn = socialSignInMachine.provide({
  actors: {
    authorize: fromPromise(({ input }: { input: { provider: 'google' | 'apple' } }) => providerIdToken(input)),
    checkRedirectProvider: fromPromise(() => ensureFacebookSetUp()),
  },
  actions: {
    saveReturnRoute: (_, returnTo) => saveSocialRedirect(returnTo),
    redirectToProvider: () => window.location.assign('/api/connect/facebook'),
  },
});

export function SocialButtons({ returnTo }: { returnTo: string }) {
  // Prerendered on /login: the buttons work once the app has taken the page over.
  const hydrated = useHydrated();
  const auth = useAuthActor();
  const social = useFlowActor(useFlows().socialSignIn ?? browserSocialSignIn, { input: { auth } });
  const busy = useSelector(social, (snapshot) => snapshot.hasTag('busy'));
  const provider = useSelector(social, (snapshot) => (snapshot.hasTag('busy') ? (snapshot.context.provider ?? 'facebook') : null));
  const error = useSelector(social, (snapshot) => snapshot.context.error);

  const label = (name: 'google' | 'apple' | 'facebook', text: string) => (provider === name ? 'Connecting...' : text);

  return (
    <div className="social-buttons">
      <FormMessages error={error} />
      <button
        type="button"
        className="button button--social"
        disabled={busy || !hydrated}
        onClick={() => social.send({ type: 'popup.requested', provider: 'google', returnTo })}
      >
        {label('google', 'Continue with Google')}
      </button>
      <button
        type="button"
        className="button button--social"
        disabled={busy || !hydrated}
        onClick={() => social.send({ type: 'popup.requested', provider: 'apple', returnTo })}
      >
        {label('apple', 'Continue with Apple')}
      </button>
      <button
        type="button"
        className="button button--social"
        disabled={busy || !hydrated}
        onClick={() => social.send({ type: 'redirect.requested', returnTo })}
      >
        {label('facebook', 'Continue with Facebook')}
      </button>
    </div>
  );
}
