import { useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { socialSignInMachine } from '../../../../machines/socialSignIn.machine';
import { useAuthActor, useFlows } from '../../../hooks/appContext';
import { useFlowActor } from '../../../hooks/useFlowActor';
import { useRedirectAction } from '../../../hooks/redirect';
import { saveSocialRedirect } from '../../../hooks/browserSessionStore';
import { FormMessages } from '../../../components/form/FormMessages';
import { ensureFacebookSetUp, providerIdToken } from './providerClients';
import { useHydrated } from '../../../hooks/useHydrated';

/** The provider clients behind Log In's social buttons. */
const browserSocialSignIn = socialSignInMachine.provide({
  actors: {
    authorize: fromPromise(({ input }: { input: { provider: 'google' | 'apple' } }) => providerIdToken(input)),
    checkRedirectProvider: fromPromise(() => ensureFacebookSetUp()),
  },
  actions: {
    saveReturnRoute: (_, returnTo) => saveSocialRedirect(returnTo),
  },
});

const buttons = [
  ['google', 'Continue with Google'],
  ['apple', 'Continue with Apple'],
  ['facebook', 'Continue with Facebook'],
] as const;

export function SocialButtons({ returnTo }: { returnTo: string }) {
  // Prerendered on /login: the buttons work once the app has taken the page over.
  const hydrated = useHydrated();
  const auth = useAuthActor();
  const redirectTo = useRedirectAction();
  const social = useFlowActor(useFlows().socialSignIn ?? browserSocialSignIn.provide({ actions: { redirectTo } }), { input: { auth } });
  const busy = useSelector(social, (snapshot) => snapshot.hasTag('busy'));
  const provider = useSelector(social, (snapshot) => (snapshot.hasTag('busy') ? (snapshot.context.provider ?? 'facebook') : null));
  const error = useSelector(social, (snapshot) => snapshot.context.error);

  return (
    <div className="social-buttons">
      <FormMessages error={error} />
      {buttons.map(([name, text]) => (
        <button
          key={name}
          type="button"
          className="button button--social"
          disabled={busy || !hydrated}
          // Facebook signs in by a full-page redirect; Google and Apple in a popup.
          onClick={() =>
            social.send(
              name === 'facebook' ? { type: 'redirect.requested', returnTo } : { type: 'popup.requested', provider: name, returnTo },
            )
          }
        >
          {provider === name ? 'Connecting...' : text}
        </button>
      ))}
    </div>
  );
}
