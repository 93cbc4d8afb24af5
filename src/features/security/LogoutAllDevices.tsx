import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { logoutAllDevicesMachine } from '../../../machines/logoutAllDevices.machine';
import { useAuthActor, useFlows } from '../../hooks/appContext';
import { useFlowActor } from '../../hooks/useFlowActor';
import { FormMessages } from '../../components/form/FormMessages';

/** Security → Signed-in devices: "Log out of all devices", under the list it empties. */
export function LogoutAllDevices() {
  const auth = useAuthActor();
  const flow = useFlowActor(useFlows().logoutAllDevices ?? logoutAllDevicesMachine, { input: { auth } });
  const busy = useSelector(flow, (snapshot) => snapshot.hasTag('busy'));
  const error = useSelector(flow, (snapshot) => (snapshot.matches('failure') ? snapshot.context.error : null));
  const descriptionId = useId();

  return (
    <div className="profile-card__group" role="group" aria-label="All devices">
      <FormMessages error={error} />
      <p id={descriptionId} className="muted">
        Ends every session of your account, on this device too.
      </p>
      <button
        type="button"
        className="button"
        aria-describedby={descriptionId}
        disabled={busy}
        onClick={() => flow.send({ type: 'logoutAll.requested' })}
      >
        {busy ? 'Logging out...' : 'Log out of all devices'}
      </button>
    </div>
  );
}
