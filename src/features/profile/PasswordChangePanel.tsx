import { useSelector } from '@xstate/react';
import { useId, type FormEvent } from 'react';
import { logoutAllDevicesMachine } from '../../../machines/logoutAllDevices.machine';
import { PASSWORD_CHANGED_MESSAGE, passwordChangeMachine } from '../../../machines/passwordChange.machine';
import { useAuthActor, useFlows } from '../../hooks/appContext';
import { useFlowActor } from '../../hooks/useFlowActor';
import { FormMessages } from '../../components/form/FormMessages';
import { formValues } from '../../components/form/formValues';
import { PasswordField } from '../../components/form/PasswordField';

export function PasswordChangePanel() {
  const auth = useAuthActor();
  const panel = useFlowActor(useFlows().passwordChange ?? passwordChangeMachine, { input: { auth } });
  const open = useSelector(panel, (snapshot) => snapshot.matches('open'));
  const busy = useSelector(panel, (snapshot) => snapshot.hasTag('busy'));
  const changed = useSelector(panel, (snapshot) => snapshot.hasTag('success'));
  const error = useSelector(panel, (snapshot) => snapshot.context.error);

  const headingId = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    panel.send({
      type: 'change.submitted',
      fields: formValues(event.currentTarget, ['currentPassword', 'password', 'passwordConfirmation'] as const),
    });
  };

  return (
    <section className="profile-card" aria-labelledby={headingId}>
      <h2 id={headingId}>Password</h2>
      <FormMessages error={open ? error : null} notice={changed ? PASSWORD_CHANGED_MESSAGE : null} />
      <button type="button" className="button" aria-expanded={open} disabled={busy} onClick={() => panel.send({ type: 'panel.toggled' })}>
        Change Password
      </button>
      {open && (
        <form className="profile-form" onSubmit={submit} noValidate aria-busy={busy}>
          <PasswordField label="Current Password" name="currentPassword" autoComplete="current-password" />
          <PasswordField label="New Password" name="password" autoComplete="new-password" />
          <PasswordField label="Confirm New Password" name="passwordConfirmation" autoComplete="new-password" />
          <div className="profile-card__actions">
            <button type="submit" className="button button--primary" disabled={busy}>
              {busy ? 'Changing...' : 'Update Password'}
            </button>
            <button type="button" className="button" disabled={busy} onClick={() => panel.send({ type: 'change.cancelled' })}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <LogoutAllDevices />
    </section>
  );
}

function LogoutAllDevices() {
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
