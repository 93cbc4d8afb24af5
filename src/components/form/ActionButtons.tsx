type ActionButtonsProps = {
  busy: boolean;
  label: string;
  /** What the first button says while the flow works (its label if not given). */
  busyLabel?: string;
  /** What the first button does; without it, it submits its form. */
  onConfirm?: () => void;
  /** False while the form cannot submit yet (Stripe.js still loading). */
  ready?: boolean;
  /** A choice the member can back out of has a second button, held while busy like the first. */
  onCancel?: () => void;
  cancelLabel?: string;
  /** A destructive confirmation: the red button, and the safe choice focused first. */
  danger?: boolean;
  /** The row's layout: in a profile card, or in a dialog. */
  className?: 'profile-card__actions' | 'modal__actions';
};

/** A form's or a confirmation's buttons: do it (saying what it is doing while busy), and Cancel where there is one. */
export function ActionButtons({
  busy,
  label,
  busyLabel = label,
  onConfirm,
  ready = true,
  onCancel,
  cancelLabel = 'Cancel',
  danger = false,
  className = 'profile-card__actions',
}: ActionButtonsProps) {
  return (
    <div className={className}>
      <button
        type={onConfirm ? 'button' : 'submit'}
        className={danger ? 'button button--danger' : 'button button--primary'}
        disabled={busy || !ready}
        onClick={onConfirm}
      >
        {busy ? busyLabel : label}
      </button>
      {onCancel && (
        <button type="button" className="button" disabled={busy} onClick={onCancel} data-autofocus={danger || undefined}>
          {cancelLabel}
        </button>
      )}
    </div>
  );
}
