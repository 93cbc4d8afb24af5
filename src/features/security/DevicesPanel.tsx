import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { SIGNED_OUT_NOTICE, signedInDevicesMachine } from '../../../machines/signedInDevices.machine';
import { formatDateTime } from '../../../machines/rules/dates';
import { useAuthActor, useFlows } from '../../hooks/appContext';
import { useFlowActor } from '../../hooks/useFlowActor';
import { FormMessages } from '../../components/form/FormMessages';
import { LogoutAllDevices } from './LogoutAllDevices';

/** Security → Signed-in devices: every session of the account, each with its own Sign out; then all at once. */
export function DevicesPanel() {
  const auth = useAuthActor();
  const flow = useFlowActor(useFlows().signedInDevices ?? signedInDevicesMachine, { input: { auth } });
  const loading = useSelector(flow, (snapshot) => snapshot.matches('loading'));
  const busy = useSelector(flow, (snapshot) => snapshot.hasTag('busy'));
  const loadFailed = useSelector(flow, (snapshot) => snapshot.matches('loadFailure'));
  const error = useSelector(flow, (snapshot) => snapshot.context.error);
  const signedOut = useSelector(flow, (snapshot) => snapshot.hasTag('success'));
  const sessions = useSelector(flow, (snapshot) => snapshot.context.sessions);
  const signingOut = useSelector(flow, (snapshot) => snapshot.context.signingOut?.id ?? null);
  const headingId = useId();

  return (
    <div className="profile-card__group" role="group" aria-labelledby={headingId} aria-busy={busy}>
      <h3 id={headingId}>Signed-in devices</h3>
      <FormMessages error={error} notice={signedOut ? SIGNED_OUT_NOTICE : null} />
      {loading && <p role="status">Loading your devices...</p>}
      {loadFailed && (
        <button type="button" className="button" onClick={() => flow.send({ type: 'devices.reloadRequested' })}>
          Try again
        </button>
      )}
      {!loading && !loadFailed && (
        <ul>
          {sessions.map((session) => (
            <li key={session.id} aria-label={`${session.browser} on ${session.device}${session.current ? ', this device' : ''}`}>
              <p>
                <strong>
                  {session.browser} on {session.device}
                </strong>
                {session.current && (
                  <>
                    {' '}
                    <em>This device</em>
                  </>
                )}
              </p>
              <p className="muted">
                Signed in {formatDateTime(session.createdAt)} · Last active {formatDateTime(session.lastActiveAt)}
              </p>
              <button
                type="button"
                className="button"
                disabled={busy}
                onClick={() => flow.send({ type: 'device.signOutRequested', id: session.id })}
              >
                {signingOut === session.id ? 'Signing out...' : 'Sign out'}
              </button>
            </li>
          ))}
        </ul>
      )}
      <LogoutAllDevices />
    </div>
  );
}
