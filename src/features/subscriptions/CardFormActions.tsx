type CardFormActionsProps = {
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  /** False while the card form cannot submit yet (Stripe.js still loading). */
  ready?: boolean;
  onCancel: () => void;
};

/** A card form's submit and Cancel buttons, both held while the form is busy. */
export function CardFormActions({ busy, submitLabel, busyLabel, ready = true, onCancel }: CardFormActionsProps) {
  return (
    <div className="modal__actions">
      <button type="submit" className="button button--primary" disabled={busy || !ready}>
        {busy ? busyLabel : submitLabel}
      </button>
      <button type="button" className="button" disabled={busy} onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
