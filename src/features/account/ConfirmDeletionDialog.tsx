import { Modal } from '../../components/Modal';
import { ActionButtons } from '../../components/form/ActionButtons';

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
      <ActionButtons className="modal__actions" danger busy={busy} label="Yes, Delete" onConfirm={onConfirm} onCancel={onCancel} />
    </Modal>
  );
}
