import { useSelector } from '@xstate/react';
import { useEffect, useId, useRef, type FormEvent } from 'react';
import { stepUpMessages } from '../../../server/src/contract/stepUp';
import { hasTypedMethod, typedMethod } from '../../../machines/stepUp.machine';
import { askStepUp } from '../../../machines/shared/stepUpGate';
import { useStepUp } from '../../hooks/useStepUp';
import { Modal } from '../../components/Modal';
import { FormMessages } from '../../components/form/FormMessages';
import { PasswordField } from '../../components/form/PasswordField';
import type { PendingStepUp } from './StepUpHost';

/**
 * "Confirm it's you" (docs/security.md#step-up): over whatever page asked, so the member keeps their
 * place; the action they started carries on once they confirm.
 */
export function StepUpDialog({ pending }: { pending: readonly PendingStepUp[] }) {
  const stepUp = useStepUp();
  // The calls that arrived while this chunk loaded: asked once each, like any later one.
  const asked = useRef(new Set<PendingStepUp>());
  useEffect(() => {
    for (const request of pending) {
      if (asked.current.has(request)) continue;
      asked.current.add(request);
      void askStepUp(stepUp, request.methods).then(request.resolve);
    }
  }, [pending, stepUp]);
  const open = useSelector(stepUp, (snapshot) => snapshot.hasTag('dialog'));
  if (!open) return null;
  return <StepUpForm stepUp={stepUp} />;
}

function StepUpForm({ stepUp }: { stepUp: ReturnType<typeof useStepUp> }) {
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
          <div className="modal__actions">
            <button type="submit" className="button button--primary" disabled={busy}>
              {busy ? 'Confirming...' : 'Confirm'}
            </button>
          </div>
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
