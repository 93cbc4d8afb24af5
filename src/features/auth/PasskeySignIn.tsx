import { useEffect } from 'react';
import { useSelector } from '@xstate/react';
import { passkeySignInMachine } from '../../../machines/passkeySignIn.machine';
import { useAuthActor, useFlows } from '../../hooks/appContext';
import { useFlowActor } from '../../hooks/useFlowActor';
import { useHydrated } from '../../hooks/useHydrated';
import { FormMessages } from '../../components/form/FormMessages';

/**
 * Log In's passkey sign-in: the button, and the passkeys the browser offers in the identifier field
 * (its autocomplete ends in "webauthn"), waited for in the background once the page is the app's.
 */
export function PasskeySignIn({ returnTo }: { returnTo: string }) {
  const hydrated = useHydrated();
  const auth = useAuthActor();
  const flow = useFlowActor(useFlows().passkeySignIn ?? passkeySignInMachine, { input: { auth } });
  const busy = useSelector(flow, (snapshot) => snapshot.hasTag('busy'));
  const error = useSelector(flow, (snapshot) => snapshot.context.error);
  const notice = useSelector(flow, (snapshot) => snapshot.context.notice);

  useEffect(() => {
    if (hydrated) flow.send({ type: 'autofill.requested', returnTo });
  }, [hydrated, flow, returnTo]);

  return (
    <div className="passkey-sign-in">
      <FormMessages error={error} notice={notice} />
      <button
        type="button"
        className="button button--block"
        disabled={busy || !hydrated}
        onClick={() => flow.send({ type: 'passkey.requested', returnTo })}
      >
        {busy ? 'Waiting for your passkey...' : 'Sign in with a passkey'}
      </button>
    </div>
  );
}
