import { useActorRef, useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { PASSWORD_CHANGED_MESSAGE, passwordChangeMachine } from '../../../machines/passwordChange.machine';
import { useFlows } from '../../app/appContext';
import { FormMessages } from '../../components/form/FormMessages';
import { formValues } from '../../components/form/formValues';
import { PasswordField } from '../../components/form/PasswordField';

export function PasswordChangePanel() {
  const panel = useActorRef(useFlows().passwordChange ?? passwordChangeMachine);
  const open = useSelector(panel, (snapshot) => snapshot.matches('open'));
  const busy = useSelector(panel, (snapshot) => snapshot.hasTag('busy'));
  const changed = useSelector(panel, (snapshot) => snapshot.hasTag('success'));
  const error = useSelector(panel, (snapshot) => snapshot.context.error);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    panel.send({
      type: 'change.submitted',
      fields: formValues(event.currentTarget, ['currentPassword', 'password', 'passwordConfirmation'] as const),
    });
  };

  return (
    <section className="profile-card" aria-label="Password">
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
    </section>
  );
}
