import { useId } from 'react';
import { Modal } from '../../components/Modal';
import { ActionButtons } from '../../components/form/ActionButtons';
import { SubscriptionAtDeletionNotice } from './SubscriptionAtDeletionNotice';
import type { SubscriptionAtDeletion } from '../../../machines/deleteAccount.machine';

type ConfirmDeletionDialogProps = { busy: boolean; subscription: SubscriptionAtDeletion; onConfirm: () => void; onCancel: () => void };

export function ConfirmDeletionDialog({ busy, subscription, onConfirm, onCancel }: ConfirmDeletionDialogProps) {
  const noticeId = useId();
  return (
    <Modal
      title="Confirm Account Deletion"
      role="alertdialog"
      busy={busy}
      onClose={onCancel}
      closeButton={false}
      description="Are you absolutely sure you want to delete your account? This action is irreversible."
      describedBy={subscription.kind === 'none' ? undefined : noticeId}
    >
      <SubscriptionAtDeletionNotice subscription={subscription} id={noticeId} />
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
