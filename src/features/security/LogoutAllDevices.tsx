import { logoutAllDevicesMachine } from '../../../machines/logoutAllDevices.machine';
import { useAuthActor, useFlows } from '../../hooks/appContext';
import { useFlowActor } from '../../hooks/useFlowActor';
import { DescribedAction } from '../../components/form/DescribedAction';

/** Security → Signed-in devices: "Log out of all devices", under the list it empties. */
export function LogoutAllDevices() {
  const auth = useAuthActor();
  const flow = useFlowActor(useFlows().logoutAllDevices ?? logoutAllDevicesMachine, { input: { auth } });

  return (
    <div className="profile-card__group" role="group" aria-label="All devices">
      <DescribedAction
        flow={flow}
        event={{ type: 'logoutAll.requested' }}
        description="Ends every session of your account, on this device too."
        label="Log out of all devices"
        busyLabel="Logging out..."
      />
    </div>
  );
}
