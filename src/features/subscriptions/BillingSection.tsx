import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { billingHistoryMachine } from '../../../machines/billingHistory.machine';
import { manageBillingMachine } from '../../../machines/manageBilling.machine';
import { billingMessages, type Invoice } from '../../../server/src/contract/billing';
import { FormMessages } from '../../components/form/FormMessages';
import { formatAmount, formatDate } from './format';
import { Modal } from './Modal';
import { SandboxCardForm } from './SandboxCardForm';

/** The browser's half of "Manage billing": leaving the app for Stripe's Customer Portal. */
export const browserManageBilling = manageBillingMachine.provide({
  actions: { goToPortal: (_, url) => window.location.assign(url) },
});

type BillingSectionProps = {
  history: ActorRefFrom<typeof billingHistoryMachine>;
  manage: ActorRefFrom<typeof manageBillingMachine>;
  /** Shown once the tab knows the payment mode and that the member has a subscription to manage. */
  canManage: boolean;
  /** "Manage billing": the tab hands the request on with the payment mode. */
  onManage: () => void;
};

/** The Subscriptions tab's billing: "Manage billing" (portal or card dialog) and the invoice list. */
export function BillingSection({ history, manage, canManage, onManage }: BillingSectionProps) {
  const headingId = useId();
  const error = useSelector(manage, (snapshot) => (snapshot.hasTag('dialog') ? null : snapshot.context.error));
  const dialogError = useSelector(manage, (snapshot) => (snapshot.hasTag('dialog') ? snapshot.context.error : null));
  const updated = useSelector(manage, (snapshot) => snapshot.hasTag('success'));
  const dialogOpen = useSelector(manage, (snapshot) => snapshot.hasTag('dialog'));
  const busy = useSelector(manage, (snapshot) => snapshot.hasTag('busy'));
  const dismiss = () => manage.send({ type: 'card.dismissed' });

  return (
    <section className="billing" aria-labelledby={headingId}>
      <h3 id={headingId}>Billing</h3>
      <FormMessages error={error} notice={updated ? billingMessages.cardUpdated : null} />
      {canManage && (
        <button type="button" className="button" disabled={busy} onClick={onManage}>
          {busy && !dialogOpen ? 'Opening...' : 'Manage billing'}
        </button>
      )}
      {dialogOpen && (
        <Modal title="Update your card" busy={busy} onClose={dismiss}>
          <FormMessages error={dialogError} />
          <SandboxCardForm
            busy={busy}
            submitLabel="Update card"
            busyLabel="Updating..."
            onPay={(card) => manage.send({ type: 'card.submitted', card })}
            onCancel={dismiss}
          />
        </Modal>
      )}
      <BillingHistory history={history} />
    </section>
  );
}

function InvoiceRow({ invoice }: { invoice: Invoice }) {
  const dateId = useId();
  const paid = invoice.status === 'paid';
  return (
    <li className="invoice">
      <strong id={dateId}>{formatDate(invoice.date)}</strong>
      <span>
        {formatAmount(invoice.amount)}
        {invoice.currency.toLowerCase() === 'usd' ? '' : ` ${invoice.currency.toUpperCase()}`}
      </span>
      {/* Not `.status`: that names the subscription's own status on the tab. */}
      <span className={paid ? 'invoice__status invoice__status--paid' : 'invoice__status invoice__status--unpaid'}>{invoice.status}</span>
      {invoice.periodStart && invoice.periodEnd && (
        <span>
          {formatDate(invoice.periodStart)} – {formatDate(invoice.periodEnd)}
        </span>
      )}
      {/* The row's date tells links of different invoices apart. */}
      {invoice.receiptUrl && (
        <a href={invoice.receiptUrl} target="_blank" rel="noopener noreferrer" aria-describedby={dateId}>
          Receipt
        </a>
      )}
      {invoice.pdfUrl && (
        <a href={invoice.pdfUrl} target="_blank" rel="noopener noreferrer" aria-describedby={dateId}>
          PDF
        </a>
      )}
    </li>
  );
}

function BillingHistory({ history }: { history: ActorRefFrom<typeof billingHistoryMachine> }) {
  const invoices = useSelector(history, (snapshot) => snapshot.context.invoices);
  const loading = useSelector(history, (snapshot) => snapshot.hasTag('busy'));
  const error = useSelector(history, (snapshot) => (snapshot.matches('failure') ? snapshot.context.error : null));
  const hasMore = useSelector(history, (snapshot) => snapshot.context.hasMore);

  return (
    <section className="billing-history" aria-label="Billing history">
      <h4>Billing history</h4>
      {invoices.length === 0 && loading && <p>Loading billing history…</p>}
      {invoices.length === 0 && !loading && !error && <p>No invoices yet.</p>}
      {invoices.length > 0 && (
        <ul className="invoices">
          {invoices.map((invoice) => (
            <InvoiceRow key={invoice.id} invoice={invoice} />
          ))}
        </ul>
      )}
      {error ? (
        <div className="alert alert--error" role="alert">
          <p>{error}</p>
          <button type="button" className="button" onClick={() => history.send({ type: 'history.retried' })}>
            Retry
          </button>
        </div>
      ) : (
        hasMore && (
          <button type="button" className="button" disabled={loading} onClick={() => history.send({ type: 'history.moreRequested' })}>
            {loading ? 'Loading...' : 'Show more'}
          </button>
        )
      )}
    </section>
  );
}
