import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { billingHistoryMachine } from '../../../machines/billingHistory.machine';
import type { cardOnFileMachine } from '../../../machines/cardOnFile.machine';
import type { manageBillingMachine } from '../../../machines/manageBilling.machine';
import { billingMessages, type Invoice } from '../../../server/src/contract/billing';
import { FormMessages } from '../../components/form/FormMessages';
import { formatDate } from '../../../machines/rules/dates';
import { formatAmount } from '../../../server/src/contract/billing';
import { CardOnFile } from './CardOnFile';
import { Modal } from '../../components/Modal';
import { RetryAlert } from './RetryAlert';
import { SandboxCardForm } from './SandboxCardForm';

type BillingSectionProps = {
  history: ActorRefFrom<typeof billingHistoryMachine>;
  manage: ActorRefFrom<typeof manageBillingMachine>;
  card: ActorRefFrom<typeof cardOnFileMachine>;
  /** Shown once the tab knows the payment mode and that the member has a subscription to manage. */
  canManage: boolean;
  /** "Manage billing": the tab hands the request on with the payment mode. */
  onManage: () => void;
};

/** The Subscriptions tab's billing: the card on file, "Manage billing" (portal or card dialog) and the invoice list. */
export function BillingSection({ history, manage, card, canManage, onManage }: BillingSectionProps) {
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
      <CardOnFile flow={card} />
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
  // The money-back guarantee's refund: the payment went back, though the provider still calls the invoice paid.
  const status = invoice.refunded ? 'refunded' : invoice.status;
  return (
    <li className="invoice">
      <strong id={dateId}>{formatDate(invoice.date)}</strong>
      <span>
        {formatAmount(invoice.amount)}
        {invoice.currency.toLowerCase() === 'usd' ? '' : ` ${invoice.currency.toUpperCase()}`}
      </span>
      {/* Not `.status`: that names the subscription's own status on the tab. */}
      <span className={`invoice__status invoice__status--${status === 'paid' || status === 'refunded' ? status : 'unpaid'}`}>{status}</span>
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
        <RetryAlert message={error} onRetry={() => history.send({ type: 'history.retried' })} />
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
