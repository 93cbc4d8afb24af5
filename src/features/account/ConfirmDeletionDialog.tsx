import { Modal } from '../../components/Modal';

type ConfirmDeletionDialogProps = { busy: boolean; onConfirm: () => void; onCancel: () => void };

export function ConfirmDeletionDialog({ busy, onConfirm, onCancel }: ConfirmDeletionDialogProps) {
  return (
    <Modal
      title="Confirm Account Deletion"
      role="alertdialog"
      busy={busy}
      onClose={onCancel}
      closeButton={false}
      description="Are you absolutely sure you want to delete your account? This action is irreversible."
    >
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
        <button type="button" className="button" disabled={busy} onClick={onCancel} data-autofocus>
          Cancel
        </button>
      </div>
    </Modal>
  );
}
