import { useSelector } from '@xstate/react';
import { useId, type FormEvent } from 'react';
import { PASSWORD_CHANGED_MESSAGE, passwordChangeMachine } from '../../../machines/passwordChange.machine';
import { useAuthActor, useFlows } from '../../hooks/appContext';
import { useFlowActor } from '../../hooks/useFlowActor';
import { FormMessages } from '../../components/form/FormMessages';
import { ActionButtons } from '../../components/form/ActionButtons';
import { formValues } from '../../components/form/formValues';
import { PasswordField } from '../../components/form/PasswordField';
import { PASSWORD_SECTION } from '../../components/profileLinks';

/**
 * Security → Password: Change Password opens the form (SPEC §2 names the button; the Information tab's
 * Change Password leads here, `#password`).
 */
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
    <section id={PASSWORD_SECTION} className="profile-card" aria-labelledby={headingId}>
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
          <ActionButtons
            busy={busy}
            label="Update Password"
            busyLabel="Changing..."
            onCancel={() => panel.send({ type: 'change.cancelled' })}
          />
        </form>
      )}
    </section>
  );
}
