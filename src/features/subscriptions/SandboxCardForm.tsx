import { useId, type FormEvent } from 'react';
import type { SandboxCard } from '../../../server/src/contract/sandboxCard';
import { formValues } from '../../components/form/formValues';
import { ActionButtons } from '../../components/form/ActionButtons';

type SandboxCardFormProps = {
  busy: boolean;
  onPay: (card: SandboxCard) => void;
  onCancel: () => void;
  /** The submit button's text, and its text while busy (a card update is not a payment). */
  submitLabel?: string;
  busyLabel?: string;
};

/** The offline sandbox's stand-in for the card element: test cards only, nothing is charged. */
export function SandboxCardForm({ busy, onPay, onCancel, submitLabel = 'Pay Now', busyLabel = 'Processing...' }: SandboxCardFormProps) {
  const ids = { number: useId(), expiry: useId(), cvc: useId() };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onPay(formValues(event.currentTarget, ['cardNumber', 'expiry', 'cvc'] as const));
  };
  return (
    <form onSubmit={submit} noValidate aria-busy={busy}>
      <p className="muted">
        Sandbox mode: no real payment is made. Use a test card such as 4242 4242 4242 4242 (Visa), 5555 5555 5555 4444 (Mastercard) or 3782
        822463 10005 (American Express) to succeed, or 4000 0000 0000 0002 to see a decline, with any future expiry date and any CVC.
      </p>
      <div className="field">
        <label htmlFor={ids.number}>Card number</label>
        <input id={ids.number} name="cardNumber" inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" />
      </div>
      <div className="field-row">
        <div className="field">
          <label htmlFor={ids.expiry}>Expiry (MM/YY)</label>
          <input id={ids.expiry} name="expiry" inputMode="numeric" autoComplete="cc-exp" placeholder="12/30" />
        </div>
        <div className="field">
          <label htmlFor={ids.cvc}>CVC</label>
          <input id={ids.cvc} name="cvc" inputMode="numeric" autoComplete="cc-csc" placeholder="123" />
        </div>
      </div>
      <ActionButtons className="modal__actions" busy={busy} label={submitLabel} busyLabel={busyLabel} onCancel={onCancel} />
    </form>
  );
}
