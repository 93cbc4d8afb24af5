import { getRouteApi } from '@tanstack/react-router';
import { socialCallbackMachine } from '../../../../machines/socialCallback.machine';
import { useAuthActor, useFlows } from '../../../hooks/appContext';
import { useFlowActor } from '../../../hooks/useFlowActor';
import { forgetSocialRedirect, readSocialRedirect } from '../../../hooks/browserSessionStore';
import { pageTitle, site } from '../../../config/site';
import { usePageHead } from '../../../hooks/usePageHead';

const callbackRoute = getRouteApi('/auth/$provider/callback');

export function SocialCallbackPage() {
  usePageHead({ title: pageTitle('Social Login'), description: `Finishing your ${site.brand} sign-in.` });
  const { provider } = callbackRoute.useParams();
  const { code, state, error } = callbackRoute.useSearch();
  const auth = useAuthActor();
  useFlowActor(
    (useFlows().socialCallback ?? socialCallbackMachine).provide({
      actions: { forgetSavedRedirect: () => forgetSocialRedirect() },
    }),
    { input: { auth, provider, code, state, error, savedRedirect: readSocialRedirect() } },
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
