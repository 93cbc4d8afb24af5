import { useId, type FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import { passkeysMachine } from '../../../machines/passkeys.machine';
import { formatDate } from '../../../machines/rules/dates';
import { PASSKEY_NAME_MAX_LENGTH } from '../../../server/src/contract/passkeys';
import { useFlows } from '../../hooks/appContext';
import { useFlowActor } from '../../hooks/useFlowActor';
import { FormMessages } from '../../components/form/FormMessages';
import { formValues } from '../../components/form/formValues';
import { Modal } from '../../components/Modal';
import { ActionButtons } from '../../components/form/ActionButtons';

/** Security › Passkeys: the member's passkeys (name, created, last used), Add and Remove (docs/security.md#passkeys). */
export function PasskeysPanel() {
  const panel = useFlowActor(useFlows().passkeys ?? passkeysMachine);
  const loading = useSelector(panel, (snapshot) => snapshot.matches('loading'));
  const loadFailed = useSelector(panel, (snapshot) => snapshot.matches('loadFailure'));
  const adding = useSelector(panel, (snapshot) => snapshot.matches('adding'));
  const busy = useSelector(panel, (snapshot) => snapshot.hasTag('busy'));
  const confirming = useSelector(panel, (snapshot) =>
    snapshot.matches('confirmingRemoval') || snapshot.matches('removing') ? snapshot.context.removing : null,
  );
  const removing = useSelector(panel, (snapshot) => snapshot.matches('removing'));
  const passkeys = useSelector(panel, (snapshot) => snapshot.context.passkeys);
  const error = useSelector(panel, (snapshot) => snapshot.context.error);
  const notice = useSelector(panel, (snapshot) => snapshot.context.notice);
  const headingId = useId();
  const nameId = useId();

  const add = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    panel.send({ type: 'add.requested', name: formValues(event.currentTarget, ['name'] as const).name });
  };

  return (
    <section className="profile-card" aria-labelledby={headingId} aria-busy={busy}>
      <h2 id={headingId}>Passkeys</h2>
      <p className="muted">Sign in with your fingerprint, face or device PIN instead of your password.</p>
      <FormMessages error={confirming ? null : error} notice={notice} />
      {loading && <p role="status">Loading your passkeys...</p>}
      {loadFailed && (
        <button type="button" className="button" onClick={() => panel.send({ type: 'passkeys.reloaded' })}>
          Try again
        </button>
      )}
      {!loading && !loadFailed && (
        <>
          {passkeys.length === 0 ? (
            <p>You have no passkeys yet.</p>
          ) : (
            <ul className="passkey-list" aria-label="Your passkeys">
              {passkeys.map((passkey) => (
                <li key={passkey.id} className="passkey-list__item">
                  <strong>{passkey.name}</strong>
                  <span className="muted">
                    {' '}
                    Created {formatDate(passkey.createdAt)} ·{' '}
                    {passkey.lastUsedAt ? `Last used ${formatDate(passkey.lastUsedAt)}` : 'Never used'}
                  </span>
                  <button
                    type="button"
                    className="button"
                    aria-label={`Remove ${passkey.name}`}
                    disabled={busy}
                    onClick={() => panel.send({ type: 'remove.requested', id: passkey.id })}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          )}
          {/* A new form (an empty name) once a passkey is added; after a refusal the name stays for another try. */}
          <form key={passkeys.length} className="profile-form" onSubmit={add} aria-busy={adding}>
            <div className="field">
              <label htmlFor={nameId}>Passkey name (optional)</label>
              <input id={nameId} name="name" maxLength={PASSKEY_NAME_MAX_LENGTH} placeholder="e.g. My phone" autoComplete="off" />
            </div>
            <button type="submit" className="button button--primary" disabled={busy}>
              {adding ? 'Adding...' : 'Add a passkey'}
            </button>
          </form>
        </>
      )}
      {confirming && (
        <Modal
          title="Remove passkey"
          role="alertdialog"
          busy={removing}
          onClose={() => panel.send({ type: 'remove.cancelled' })}
          closeButton={false}
          description={`Remove "${confirming.name}"? You will no longer be able to sign in with it.`}
        >
          <ActionButtons
            className="modal__actions"
            danger
            busy={removing}
            label="Yes, Remove"
            busyLabel="Removing..."
            onConfirm={() => panel.send({ type: 'remove.confirmed' })}
            onCancel={() => panel.send({ type: 'remove.cancelled' })}
          />
        </Modal>
      )}
    </section>
  );
}
