import { useSelector } from '@xstate/react';
import { logoutAllDevicesMachine } from '../../../machines/logoutAllDevices.machine';
import { useAuthActor, useFlows } from '../../hooks/appContext';
import { useFlowActor } from '../../hooks/useFlowActor';
import { FormMessages } from '../../components/form/FormMessages';
import { DescribedAction } from '../../components/form/DescribedAction';

/** Security → Signed-in devices: "Log out of all devices", under the list it empties. */
export function LogoutAllDevices() {
  const auth = useAuthActor();
  const flow = useFlowActor(useFlows().logoutAllDevices ?? logoutAllDevicesMachine, { input: { auth } });
  const busy = useSelector(flow, (snapshot) => snapshot.hasTag('busy'));
  const error = useSelector(flow, (snapshot) => (snapshot.matches('failure') ? snapshot.context.error : null));

  return (
    <div className="profile-card__group" role="group" aria-label="All devices">
      <FormMessages error={error} />
      <DescribedAction
        description="Ends every session of your account, on this device too."
        label="Log out of all devices"
        busyLabel="Logging out..."
        busy={busy}
        onClick={() => flow.send({ type: 'logoutAll.requested' })}
      />
    </div>
  );
}
