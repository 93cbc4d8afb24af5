import { getRouteApi } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { socialCallbackMachine } from '../../../../machines/socialCallback.machine';
import { useAuthActor, useFlows } from '../../../app/appContext';
import { useNavigateAction } from '../../../app/navigation';
import { forgetSocialRedirect, readSocialRedirect } from '../../../auth/browserSessionStore';
import { pageTitle, site } from '../../../config/site';
import { usePageHead } from '../../../app/usePageHead';

const callbackRoute = getRouteApi('/auth/$provider/callback');

export function SocialCallbackPage() {
  usePageHead({ title: pageTitle('Social Login'), description: `Finishing your ${site.brand} sign-in.` });
  const { provider } = callbackRoute.useParams();
  const { code, state, error } = callbackRoute.useSearch();
  const auth = useAuthActor();
  const navigate = useNavigateAction();
  useActorRef(
    (useFlows().socialCallback ?? socialCallbackMachine).provide({
      actions: {
        startSession: (_, response) => auth.send({ type: 'session.started', response }),
        forgetSavedRedirect: () => forgetSocialRedirect(),
        navigate,
      },
    }),
    { input: { provider, code, state, error, savedRedirect: readSocialRedirect() } },
  );
  return (
    <section className="page page--narrow confirmation" aria-busy="true">
      <div className="spinner">
        <span className="spinner__wheel" aria-hidden="true" />
        <p role="status">Processing login...</p>
      </div>
    </section>
  );
}
