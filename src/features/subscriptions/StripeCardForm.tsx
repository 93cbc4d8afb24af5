import { useMemo, useState, type FormEvent } from 'react';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import type { PaymentMethodInput } from '../../../machines/services/confirmPayment';
import { ActionButtons } from '../../components/form/ActionButtons';

type StripeCardFormProps = {
  publishableKey: string;
  busy: boolean;
  onPay: (method: PaymentMethodInput) => void;
  onCancel: () => void;
};

export const STRIPE_UNAVAILABLE =
  'Card payments are unavailable right now: the payment provider could not be reached. Please try again later.';

/** Stripe's card element (postal code hidden); Stripe.js loads only when this form is shown. */
export function StripeCardForm({ publishableKey, ...props }: StripeCardFormProps) {
  const [unavailable, setUnavailable] = useState(false);
  const stripePromise = useMemo(
    () =>
      loadStripe(publishableKey).catch(() => {
        setUnavailable(true);
        return null;
      }),
    [publishableKey],
  );
  if (unavailable) {
    return (
      <>
        <p role="alert" className="alert alert--error">
          {STRIPE_UNAVAILABLE}
        </p>
        <div className="modal__actions">
          <button type="button" className="button" onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      </>
    );
  }
  return (
    <Elements stripe={stripePromise}>
      <CardForm {...props} />
    </Elements>
  );
}

function CardForm({ busy, onPay, onCancel }: Omit<StripeCardFormProps, 'publishableKey'>) {
  const stripe = useStripe();
  const elements = useElements();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (stripe && elements) onPay({ kind: 'stripe', stripe, elements });
  };
  return (
    <form onSubmit={submit} aria-busy={busy}>
      <div className="field">
        <span className="field__label">Card details</span>
        <div className="card-element">
          {/* Its field is in Stripe's frame: the dialog cannot focus it or hear Escape in it. */}
          <CardElement
            options={{ hidePostalCode: true }}
            onReady={(element) => element.focus()}
            onEscape={() => {
              if (!busy) onCancel();
            }}
          />
        </div>
      </div>
      <ActionButtons
        className="modal__actions"
        busy={busy}
        label="Pay Now"
        busyLabel="Processing..."
        ready={stripe !== null}
        onCancel={onCancel}
      />
    </form>
  );
}
