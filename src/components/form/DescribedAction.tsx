import { useId } from 'react';

type DescribedActionProps = {
  /** What the button does, read out with it. */
  description: string;
  label: string;
  busyLabel: string;
  busy: boolean;
  onClick: () => void;
};

/** A one-click action with the sentence that says what it does, held while its flow is busy. */
export function DescribedAction({ description, label, busyLabel, busy, onClick }: DescribedActionProps) {
  const descriptionId = useId();
  return (
    <>
      <p id={descriptionId} className="muted">
        {description}
      </p>
      <button type="button" className="button" aria-describedby={descriptionId} disabled={busy} onClick={onClick}>
        {busy ? busyLabel : label}
      </button>
    </>
  );
}
