// @ts-nocheck
import { useId, type KeyboardEvent } from 'react';

type ConfirmDeletionDialogProps = { busy: boolean; onConfirm: () => void; onCancel: () => void };

export function ConfirmDeletionDialog({ busy, onConfirm, onCancel }: ConfirmDeletionDialogProps) {
  const titleId = useId();
  const textId = useId();
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && !busy) onCancel();
  };
  return (
    <div className="modal-backdrop">
      <div
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={textId}
        aria-busy={busy}
        className="modal"
        onKeyDown={closeOnEscape}
      >
        <h2 id={titleId}>Confirm Account Deletion</h2>
        <p id={textId}>Are you absolutely sure you want to delete your account? This action is irreversible.</p>
        {busy && (
          <p className="spinner" role="status">
            <span className="spinner__wheel" aria-hidden="true" />
            Deleting...
          </p>
        )}
        <div className="modal__actions">
          <button type="button" className="button button--danger" disabled={busy} onClick={onConfirm}>
            Yes, Delete
          </button>
          <button type="button" className="button" disabled={busy} onClick={onCancel} autoFocus>
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}
