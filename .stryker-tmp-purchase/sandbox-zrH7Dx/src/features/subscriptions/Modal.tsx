// @ts-nocheck
import { useId, type KeyboardEvent, type ReactNode } from 'react';

type ModalProps = {
  title: string;
  role?: 'dialog' | 'alertdialog';
  busy?: boolean;
  onClose: () => void;
  children: ReactNode;
  description?: string;
};

/** A modal dialog: Escape or the close button closes it unless it is busy. */
export function Modal({ title, role = 'dialog', busy = false, onClose, children, description }: ModalProps) {
  const titleId = useId();
  const descriptionId = useId();
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && !busy) onClose();
  };
  return (
    <div className="modal-backdrop">
      <div
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        aria-busy={busy}
        className="modal"
        onKeyDown={closeOnEscape}
      >
        <div className="modal__header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="modal__close" aria-label="Close" disabled={busy} onClick={onClose}>
            ✕
          </button>
        </div>
        {description && <p id={descriptionId}>{description}</p>}
        {children}
      </div>
    </div>
  );
}
