import { useSelector } from '@xstate/react';
import { useId, type FormEvent } from 'react';
import { stepUpMessages } from '../../../server/src/contract/stepUp';
import { hasTypedMethod, typedMethod, type StepUpActorRef } from '../../../machines/stepUp.machine';
import { Modal } from '../../components/Modal';
import { FormMessages } from '../../components/form/FormMessages';
import { PasswordField } from '../../components/form/PasswordField';
import { ActionButtons } from '../../components/form/ActionButtons';

/**
 * "Confirm it's you" (docs/security.md#step-up): over whatever page asked, so the member keeps their
 * place; the action they started carries on once they confirm.
 */
export function StepUpDialog({ stepUp }: { stepUp: StepUpActorRef }) {
  const busy = useSelector(stepUp, (snapshot) => snapshot.hasTag('busy'));
  const error = useSelector(stepUp, (snapshot) => snapshot.context.error);
  const methods = useSelector(stepUp, (snapshot) => snapshot.context.methods);
  const typed = hasTypedMethod(methods) ? typedMethod(methods) : null;
  const codeId = useId();
  const cancel = () => stepUp.send({ type: 'stepUp.cancelled' });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const secret = new FormData(event.currentTarget).get('secret');
    stepUp.send({ type: 'stepUp.submitted', secret: typeof secret === 'string' ? secret : '' });
  };

  return (
    <Modal title="Confirm it's you" busy={busy} onClose={cancel} description={stepUpMessages.required}>
      <FormMessages error={error} />
      {typed === null && !methods.includes('passkey') && <p>{stepUpMessages.logInAgain}</p>}
      {typed !== null && (
        <form className="profile-form" onSubmit={submit} noValidate aria-busy={busy}>
          {typed === 'password' ? (
            <PasswordField label="Password" name="secret" autoComplete="current-password" />
          ) : (
            <div className="field">
              <label htmlFor={codeId}>Two-factor code</label>
              <input id={codeId} name="secret" autoComplete="one-time-code" spellCheck={false} />
            </div>
          )}
          <ActionButtons busy={busy} label="Confirm" busyLabel="Confirming..." className="modal__actions" />
        </form>
      )}
      <div className="modal__actions">
        {methods.includes('passkey') && (
          <button type="button" className="button" disabled={busy} onClick={() => stepUp.send({ type: 'stepUp.passkeyChosen' })}>
            Use a passkey
          </button>
        )}
        <button type="button" className="button" disabled={busy} onClick={cancel}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}
